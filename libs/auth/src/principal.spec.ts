import { describe, expect, it } from '@jest/globals';
import { ADMIN_SCOPE, principalOf } from './principal.js';

describe('principalOf (who a verified token speaks for)', () => {
  it('when a token has a subject and no scope, then it is that customer with no scopes', () => {
    expect(principalOf({ sub: 'c1' })).toEqual({ subject: 'c1', scopes: [], kind: 'customer' });
  });

  it('when a token carries the admin scope, then it is an operator', () => {
    expect(principalOf({ sub: 'ops', scope: `read ${ADMIN_SCOPE}` })).toEqual({
      subject: 'ops',
      scopes: ['read', ADMIN_SCOPE],
      kind: 'admin',
    });
  });

  it('when client_id equals sub (a client-credentials token, RFC 9068), then it is a service, whatever its scopes', () => {
    expect(principalOf({ sub: 'inventory', client_id: 'inventory', scope: 'loyalty:accruals:write admin' }).kind).toBe('service');
  });

  it('when client_id names another client (a user signed in through an app), then the subject is still a customer', () => {
    expect(principalOf({ sub: 'c1', client_id: 'web-shop' }).kind).toBe('customer');
  });

  it('when scope is not a string, then the token has no scopes', () => {
    expect(principalOf({ sub: 'c1', scope: ['admin'] }).scopes).toEqual([]);
  });
});
