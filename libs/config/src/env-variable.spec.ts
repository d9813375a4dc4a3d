import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError } from './config-validation.error.js';
import { renderEnvExample } from './env-example.js';
import { env, envDefault } from './env-variable.js';
import { loadConfig } from './load-config.js';

const schema = {
  APP_PORT: env.port({ description: 'HTTP port', default: 3000 }),
  APP_NAME: env.string({ description: 'Name shown in logs', default: 'app', pattern: /^[a-z]+$/ }),
  APP_DEBUG: env.boolean({ description: 'Log more', default: false }),
  APP_BROKERS: env.list({ description: 'Brokers, host:port', itemPattern: /^[a-z0-9.]+:\d+$/ }),
  APP_UPSTREAM_URL: env.url({ description: 'Where calls go', protocols: ['http', 'https'] }),
  APP_CLEANUP_CRON: env.cron({ description: 'When cleanup runs', default: '0 */5 * * * *' }),
};

function problemsOf(source: Record<string, string>): readonly string[] {
  try {
    loadConfig(schema, source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as ConfigValidationError).problems;
  }
  throw new Error('expected a ConfigValidationError');
}

describe('env variables', () => {
  it('when required variables are missing, then each is named with its type and description', () => {
    expect(problemsOf({})).toEqual([
      'APP_BROKERS is required (comma-separated list): Brokers, host:port',
      'APP_UPSTREAM_URL is required (url (http, https)): Where calls go',
    ]);
  });

  it('when variables are missing AND malformed, then ONE error names every one of them, in declaration order', () => {
    expect(problemsOf({ APP_PORT: '70000', APP_NAME: '   ', APP_DEBUG: 'maybe', APP_BROKERS: ' , ', APP_CLEANUP_CRON: 'often' })).toEqual([
      'APP_PORT must be between 1 and 65535, got 70000',
      'APP_NAME must not be empty',
      'APP_DEBUG must be true or false, got "maybe"',
      'APP_BROKERS must list at least one item',
      'APP_UPSTREAM_URL is required (url (http, https)): Where calls go',
      expect.stringMatching(/^APP_CLEANUP_CRON must be a cron expression \(.+\), got "often"$/),
    ]);
  });

  it('when a value breaks a pattern or a protocol, then the problem says which', () => {
    expect(problemsOf({ APP_NAME: 'App', APP_BROKERS: 'kafka:9092,kafka', APP_UPSTREAM_URL: 'ftp://host' })).toEqual([
      'APP_NAME must match /^[a-z]+$/',
      'APP_BROKERS has malformed item(s): kafka',
      'APP_UPSTREAM_URL must use http or https, got "ftp:"',
    ]);
  });

  it('when values are valid, then they are parsed to their types, and empty ones take their default', () => {
    expect(
      loadConfig(schema, {
        APP_PORT: ' 8080 ',
        APP_NAME: '',
        APP_DEBUG: 'YES',
        APP_BROKERS: 'a:1, b:2,',
        APP_UPSTREAM_URL: 'https://x.test',
      }),
    ).toEqual({
      APP_PORT: 8080,
      APP_NAME: 'app',
      APP_DEBUG: true,
      APP_BROKERS: ['a:1', 'b:2'],
      APP_UPSTREAM_URL: 'https://x.test',
      APP_CLEANUP_CRON: '0 */5 * * * *',
    });
  });

  it('when asked for defaults, then a required variable has none', () => {
    expect(envDefault(schema.APP_PORT)).toBe(3000);
    expect(envDefault(schema.APP_BROKERS)).toBeUndefined();
  });

  it('when rendered for .env.example, then each variable shows its description, type and default', () => {
    expect(
      renderEnvExample('app', { APP_PORT: schema.APP_PORT, APP_BROKERS: schema.APP_BROKERS, APP_CLEANUP_CRON: schema.APP_CLEANUP_CRON }),
    ).toBe(
      [
        '# --- app ---',
        '# HTTP port [port; default 3000]',
        'APP_PORT=3000',
        '# Brokers, host:port [comma-separated list; required]',
        'APP_BROKERS=',
        '# When cleanup runs [cron expression; default 0 */5 * * * *]',
        'APP_CLEANUP_CRON="0 */5 * * * *"',
      ].join('\n'),
    );
  });
});
