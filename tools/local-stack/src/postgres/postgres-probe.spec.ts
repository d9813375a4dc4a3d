import { describe, expect, it } from '@jest/globals';
import { postgresFixHint } from './postgres-probe.js';

describe('postgresFixHint', () => {
  it('when the server refuses the password, then the hint says where the password goes, not to start a server', () => {
    const refused = Object.assign(new Error('password authentication failed for user "postgres"'), { code: '28P01' });
    expect(postgresFixHint(refused)).toContain('wants a password');
    expect(postgresFixHint(refused)).not.toContain('Start a server');
  });

  it('when no password was sent to a server that wants one (SCRAM), then the hint is the same', () => {
    expect(postgresFixHint(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'))).toContain(
      'docker compose down -v',
    );
  });

  it('when nothing answers, then the hint says to start a server', () => {
    expect(postgresFixHint(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toContain(
      'Start a server',
    );
  });
});
