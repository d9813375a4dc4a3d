import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError } from '@libs/config';
import { databaseSsl } from './database-ssl.js';

const ca = Buffer.from('-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n');
const files = (path: string) => {
  if (path === '/etc/pg/ca.pem') return ca;
  throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
};

describe('databaseSsl (DATABASE_SSL_* to pg ssl)', () => {
  it('when nothing is set, then connections are plaintext (the local Postgres has no certificate)', () => {
    expect(databaseSsl({})).toBe(false);
    expect(databaseSsl({ DATABASE_SSL_MODE: 'disable', DATABASE_SSL_CA_FILE: '' })).toBe(false);
  });

  it('when require, then encrypted without checking the certificate', () => {
    expect(databaseSsl({ DATABASE_SSL_MODE: 'require' })).toEqual({ rejectUnauthorized: false });
  });

  it('when verify-full with a CA file, then the certificate must chain to that CA and match the host name', () => {
    const ssl = databaseSsl({ DATABASE_SSL_MODE: 'verify-full', DATABASE_SSL_CA_FILE: '/etc/pg/ca.pem' }, files);
    expect(ssl).toEqual({ rejectUnauthorized: true, ca: [ca] });
  });

  it('when verify-ca, then the chain is checked and the host name is not', () => {
    const ssl = databaseSsl({ DATABASE_SSL_MODE: 'verify-ca', DATABASE_SSL_CA_FILE: '/etc/pg/ca.pem' }, files);
    expect(ssl).toMatchObject({ rejectUnauthorized: true, ca: [ca] });
    expect(ssl && ssl.checkServerIdentity?.('elsewhere', {} as never)).toBeUndefined();
    // verify-full keeps Node's own host name check.
    expect(
      (databaseSsl({ DATABASE_SSL_MODE: 'verify-full' }) as object as { checkServerIdentity?: unknown }).checkServerIdentity,
    ).toBeUndefined();
  });

  it('when the CA file is unreadable, or set with a mode that would ignore it, then a configuration error names the variable', () => {
    expect(() => databaseSsl({ DATABASE_SSL_MODE: 'verify-full', DATABASE_SSL_CA_FILE: '/missing.pem' }, files)).toThrow(
      /DATABASE_SSL_CA_FILE cannot be read: ENOENT/,
    );
    expect(() => databaseSsl({ DATABASE_SSL_MODE: 'require', DATABASE_SSL_CA_FILE: '/etc/pg/ca.pem' }, files)).toThrow(
      ConfigValidationError,
    );
  });
});
