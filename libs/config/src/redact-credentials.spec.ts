import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError } from './config-validation.error.js';
import { env } from './env-variable.js';
import { loadConfig } from './load-config.js';
import { redactCredentials } from './redact-credentials.js';

describe('redactCredentials', () => {
  it.each([
    ['postgres://app:s3cret@db:5432/orders', 'postgres://app:***@db:5432/orders'],
    ['postgres://app:p@ss:w0rd@db:99999', 'postgres://app:***@db:99999'],
    ['postgres://app@db:5432', 'postgres://app@db:5432'],
    ['http://127.0.0.1:3002', 'http://127.0.0.1:3002'],
  ])('when the text is %s, then it reads %s', (text, expected) => {
    expect(redactCredentials(text)).toBe(expected);
  });
});

describe('env.url', () => {
  it('when a URL with a password fails to parse, then the error names the variable but not the password', () => {
    const schema = { DATABASE_URL: env.url({ description: 'db', protocols: ['postgres'] }) };
    let error: unknown;
    try {
      loadConfig(schema, { DATABASE_URL: 'postgres://app:s3cret-pw@db:99999' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    expect((error as Error).message).toContain('DATABASE_URL');
    expect((error as Error).message).not.toContain('s3cret-pw');
  });
});
