import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError, loadConfig } from '@libs/config';
import { outboxEnv } from './outbox.config.js';

function problemsOf(source: Record<string, string>): readonly string[] {
  try {
    loadConfig(outboxEnv, source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as ConfigValidationError).problems;
  }
  throw new Error('expected a ConfigValidationError');
}

describe('outbox configuration', () => {
  it('when nothing is set, then every variable has its documented default', () => {
    expect(loadConfig(outboxEnv, {})).toEqual({
      MESSAGE_SIGNING_KEY: '',
      MESSAGE_SIGNING_DISABLED: false,
      NODE_ENV: '',
      OUTBOX_RELAY_ENABLED: true,
      OUTBOX_POLL_INTERVAL_MS: 1000,
      OUTBOX_LINGER_ENABLED: true,
      OUTBOX_LINGER_MS: 40,
      OUTBOX_LISTEN_ENABLED: true,
      OUTBOX_BATCH_SIZE: 500,
      OUTBOX_BATCHES_PER_TRANSACTION: 10,
      OUTBOX_MAX_BATCHES_PER_CYCLE: 20,
      OUTBOX_PUBLISH_TIMEOUT_MS: 15_000,
      OUTBOX_READ_AHEAD_ENABLED: true,
      OUTBOX_RELAXED_COMMIT_ENABLED: true,
      OUTBOX_RETRY_BASE_MS: 500,
      OUTBOX_RETRY_MAX_MS: 30_000,
      OUTBOX_UNAVAILABLE_RETRY_MAX_MS: 1000,
      OUTBOX_RETENTION_MS: 604_800_000,
      OUTBOX_CLEANUP_CRON: '0 */5 * * * *',
      OUTBOX_CLEANUP_BATCH_SIZE: 1000,
      OUTBOX_PARTITIONS_AHEAD_DAYS: 3,
    });
  });

  it('when valid values are set, then they are parsed to their types', () => {
    const config = loadConfig(outboxEnv, {
      OUTBOX_RELAY_ENABLED: 'false',
      OUTBOX_LISTEN_ENABLED: 'no',
      OUTBOX_POLL_INTERVAL_MS: '60000',
      OUTBOX_BATCH_SIZE: ' 2000 ',
      OUTBOX_CLEANUP_CRON: '*/10 * * * * *',
    });
    expect(config).toMatchObject({
      OUTBOX_RELAY_ENABLED: false,
      OUTBOX_LISTEN_ENABLED: false,
      OUTBOX_POLL_INTERVAL_MS: 60_000,
      OUTBOX_BATCH_SIZE: 2000,
      OUTBOX_CLEANUP_CRON: '*/10 * * * * *',
    });
  });

  it('when an empty string is set, then the default applies (as if unset)', () => {
    expect(loadConfig(outboxEnv, { OUTBOX_BATCH_SIZE: '' }).OUTBOX_BATCH_SIZE).toBe(500);
  });

  it('when several variables are malformed, then ONE error names every one of them', () => {
    const problems = problemsOf({
      OUTBOX_RELAY_ENABLED: 'maybe',
      OUTBOX_POLL_INTERVAL_MS: '1.5',
      OUTBOX_BATCH_SIZE: '0',
      OUTBOX_MAX_BATCHES_PER_CYCLE: 'ten',
      OUTBOX_RETRY_MAX_MS: '-1',
      OUTBOX_RETENTION_MS: '99999999999999',
      OUTBOX_CLEANUP_CRON: 'every five minutes',
      OUTBOX_CLEANUP_BATCH_SIZE: '100001',
    });
    expect(problems).toHaveLength(8);
    expect(problems).toEqual([
      expect.stringMatching(/^OUTBOX_RELAY_ENABLED must be true or false, got "maybe"/),
      expect.stringMatching(/^OUTBOX_POLL_INTERVAL_MS must be an integer, got "1.5"/),
      expect.stringMatching(/^OUTBOX_BATCH_SIZE must be between 1 and 2000, got 0/),
      expect.stringMatching(/^OUTBOX_MAX_BATCHES_PER_CYCLE must be an integer, got "ten"/),
      expect.stringMatching(/^OUTBOX_RETRY_MAX_MS must be between 1 and 86400000, got -1/),
      expect.stringMatching(/^OUTBOX_RETENTION_MS must be between 0 and 31536000000/),
      expect.stringMatching(/^OUTBOX_CLEANUP_CRON must be a cron expression/),
      expect.stringMatching(/^OUTBOX_CLEANUP_BATCH_SIZE must be between 1 and 100000, got 100001/),
    ]);
  });

  it('when the error is printed, then its message lists every problem on its own line', () => {
    try {
      loadConfig(outboxEnv, { OUTBOX_BATCH_SIZE: 'x', OUTBOX_POLL_INTERVAL_MS: '5' });
      throw new Error('expected a ConfigValidationError');
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^Invalid configuration \(2 problems\):/);
      expect(message).toContain('\n  - OUTBOX_POLL_INTERVAL_MS must be between 10 and 3600000, got 5');
      expect(message).toContain('\n  - OUTBOX_BATCH_SIZE must be an integer, got "x"');
    }
  });
});
