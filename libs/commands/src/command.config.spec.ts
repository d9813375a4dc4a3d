import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@libs/config';
import { commandsEnv, commandsOptions } from './command.config.js';

describe('commandsEnv and commandsOptions', () => {
  it('when a prefix is given, then every option is a variable named with it, and only the base URL is required', () => {
    const schema = commandsEnv('PARTNER', 'the partner');
    expect(Object.keys(schema).sort()).toEqual([
      'COMMANDS_BATCHED_CALLS_ENABLED',
      'COMMANDS_COALESCED_MARKS_ENABLED',
      'COMMANDS_CONCURRENT_CALLS_ENABLED',
      'COMMANDS_DISPATCH_LINGER_ENABLED',
      'PARTNER_BASE_URL',
      'PARTNER_COMMANDS_CLEANUP_BATCH_SIZE',
      'PARTNER_COMMANDS_CLEANUP_CRON',
      'PARTNER_COMMANDS_RETENTION_MS',
      'PARTNER_DISPATCH_BATCH_SIZE',
      'PARTNER_DISPATCH_CONCURRENCY',
      'PARTNER_DISPATCH_INTERVAL_MS',
      'PARTNER_DISPATCH_LINGER_MS',
      'PARTNER_REQUEST_TIMEOUT_MS',
      'PARTNER_RETRY_BASE_MS',
      'PARTNER_RETRY_MAX_MS',
    ]);
    expect(() => loadConfig(schema, {})).toThrow(/PARTNER_BASE_URL/);
  });

  it('when the variables are read, then the options carry their values and the defaults, for the given table', () => {
    const config = loadConfig(commandsEnv('PARTNER', 'the partner'), {
      PARTNER_BASE_URL: 'http://partner:8080',
      PARTNER_DISPATCH_CONCURRENCY: '3',
      PARTNER_COMMANDS_RETENTION_MS: '3600000',
    });
    expect(commandsOptions('PARTNER', config, 'partner_commands')).toEqual({
      table: 'partner_commands',
      baseUrl: 'http://partner:8080',
      pollIntervalMs: 1000,
      lingerMs: 40,
      batchSize: 50,
      concurrency: 3,
      requestTimeoutMs: 3000,
      retryBaseMs: 500,
      retryMaxMs: 30_000,
      retentionMs: 3_600_000,
      cleanupCron: '0 */5 * * * *',
      cleanupBatchSize: 1000,
      layers: { 'dispatch-linger': true, 'concurrent-calls': true, 'batched-calls': true, 'coalesced-marks': true },
    });
  });

  it('when a layer switch is false, then that layer alone is off in the options', () => {
    const config = loadConfig(commandsEnv('PARTNER', 'the partner'), {
      PARTNER_BASE_URL: 'http://partner:8080',
      COMMANDS_COALESCED_MARKS_ENABLED: 'false',
    });
    expect(commandsOptions('PARTNER', config, 'partner_commands').layers).toEqual({
      'dispatch-linger': true,
      'concurrent-calls': true,
      'batched-calls': true,
      'coalesced-marks': false,
    });
  });

  it('when a layer switch is not a boolean, then loading names it', () => {
    expect(() =>
      loadConfig(commandsEnv('PARTNER', 'the partner'), { PARTNER_BASE_URL: 'http://partner:8080', COMMANDS_BATCHED_CALLS_ENABLED: 'off' }),
    ).toThrow(/COMMANDS_BATCHED_CALLS_ENABLED/);
  });

  it('when a value is out of bounds, then loading names the prefixed variable', () => {
    expect(() =>
      loadConfig(commandsEnv('PARTNER', 'the partner'), { PARTNER_BASE_URL: 'http://partner:8080', PARTNER_DISPATCH_BATCH_SIZE: '0' }),
    ).toThrow(/PARTNER_DISPATCH_BATCH_SIZE/);
  });
});
