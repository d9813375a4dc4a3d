import { describe, expect, it } from '@jest/globals';
import { LocalDefaults } from '../environment/local-defaults.js';
import { isLocalDefaultPostgresUrl, postgresPort } from './local-postgres-url.js';

describe('isLocalDefaultPostgresUrl', () => {
  it('when the URL is the local default, on its port or another, then it is', () => {
    expect(isLocalDefaultPostgresUrl(LocalDefaults.DATABASE_URL)).toBe(true);
    expect(isLocalDefaultPostgresUrl('postgres://postgres@127.0.0.1:55432')).toBe(true);
    expect(isLocalDefaultPostgresUrl('postgresql://postgres@localhost:55432/orders')).toBe(true);
  });

  it('when the URL names another host, user, password or options, then it is not: it names a server of the user', () => {
    for (const url of [
      'postgres://postgres@db.example.com:5432',
      'postgres://postgres@10.0.0.5:5432',
      'postgres://app@127.0.0.1:5432',
      'postgres://postgres:secret@127.0.0.1:5432',
      'postgres://postgres@127.0.0.1:5432?sslmode=require',
      'mysql://postgres@127.0.0.1:5432',
      'not a url',
    ]) {
      expect({ url, local: isLocalDefaultPostgresUrl(url) }).toEqual({ url, local: false });
    }
  });
});

describe('postgresPort', () => {
  it('when the URL names a port, then that one, else 5432', () => {
    expect(postgresPort('postgres://postgres@127.0.0.1:55432')).toBe(55432);
    expect(postgresPort('postgres://postgres@127.0.0.1')).toBe(5432);
  });
});
