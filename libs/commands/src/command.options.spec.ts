import { describe, expect, it } from '@jest/globals';
import { checkedCommandsOptions, type CommandsOptions } from './command.options.js';

const options = (table: string): CommandsOptions => ({
  table,
  baseUrl: 'http://127.0.0.1:3002',
  pollIntervalMs: 100,
  lingerMs: 0,
  batchSize: 50,
  concurrency: 8,
  requestTimeoutMs: 3000,
  retryBaseMs: 500,
  retryMaxMs: 30_000,
  tokenSource: { token: async () => 'token', invalidate: () => undefined },
  retentionMs: 7 * 86_400_000,
  cleanupCron: '0 */5 * * * *',
  cleanupBatchSize: 1000,
  layers: { 'dispatch-linger': true, 'concurrent-calls': true, 'batched-calls': true, 'coalesced-marks': true },
});

describe('checkedCommandsOptions (the table name goes into SQL text)', () => {
  it.each(['loyalty_commands', 'partner.payment_commands'])('when the table is %s, then the options are accepted', (table) => {
    expect(checkedCommandsOptions(options(table)).table).toBe(table);
  });

  it.each(['loyalty_commands; DROP TABLE orders', 'Loyalty', '"quoted"', ''])(
    'when the table is %j, then the module refuses to start',
    (table) => {
      expect(() => checkedCommandsOptions(options(table))).toThrow('table must be a lower-case SQL identifier');
    },
  );
});
