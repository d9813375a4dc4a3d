import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv } from '@app/http';
import { telemetryEnv } from '@app/telemetry';
import { inboxEnv } from '@app/inbox';
import { consumerLagEnv, kafkaEnv } from '@app/kafka';
import { outboxEnv } from '@app/outbox';

export const inventoryEnv = {
  INVENTORY_PORT: env.port({ description: 'HTTP port of the inventory service (health, stock admin)', default: 3001 }),
  ...httpEnv,
  ...telemetryEnv,
  ...databaseEnv('inventory'),
  ...kafkaEnv('inventory'),
  ...consumerLagEnv,
  ...outboxEnv,
  ...inboxEnv,
  LOYALTY_BASE_URL: env.url({
    description: 'Base URL of the loyalty service that credits points, e.g. http://127.0.0.1:3002',
    protocols: ['http', 'https'],
  }),
  LOYALTY_DISPATCH_INTERVAL_MS: env.integer({
    description:
      'How often an idle dispatcher looks for due commands (a backlog is drained without waiting); lower means faster accruals, more idle queries',
    default: 100,
    min: 10,
    max: 3_600_000,
  }),
  LOYALTY_DISPATCH_BATCH_SIZE: env.integer({
    description:
      'Commands claimed per statement; full batches are followed at once by the next. Larger means fewer claims but a longer lease (a dead replica delays its claimed commands until it ends)',
    default: 50,
    min: 1,
    max: 1000,
  }),
  LOYALTY_DISPATCH_CONCURRENCY: env.integer({
    description:
      'Calls to loyalty in flight at once per process; higher drains faster until loyalty (or its database pool) saturates, and shortens the claim lease',
    default: 8,
    min: 1,
    max: 100,
  }),
  LOYALTY_REQUEST_TIMEOUT_MS: env.integer({
    description: 'Timeout of one call to loyalty; a timeout is retried with the same Idempotency-Key',
    default: 3000,
    min: 50,
    max: 120_000,
  }),
  LOYALTY_RETRY_BASE_MS: env.integer({
    description: 'First retry delay after a timeout or 5xx; doubles per attempt, with jitter',
    default: 500,
    min: 1,
    max: 3_600_000,
  }),
  LOYALTY_RETRY_MAX_MS: env.integer({ description: 'Cap of the retry delay', default: 30_000, min: 1, max: 86_400_000 }),
  LOYALTY_COMMANDS_RETENTION_MS: env.integer({
    description:
      'Acknowledged (DONE) loyalty commands older than this are deleted by cleanup; keep enough to answer a dispute. Pending and parked ones are never deleted',
    default: 7 * 24 * 3_600_000,
    min: 0,
    max: 365 * 24 * 3_600_000,
  }),
  LOYALTY_COMMANDS_CLEANUP_CRON: env.cron({
    description: 'When the loyalty commands cleanup runs (cron syntax with seconds)',
    default: '0 */5 * * * *',
  }),
  LOYALTY_COMMANDS_CLEANUP_BATCH_SIZE: env.integer({
    description: 'Loyalty commands deleted per statement by cleanup; bounds lock time and WAL bursts',
    default: 1000,
    min: 1,
    max: 100_000,
  }),
};

export type InventoryConfig = EnvConfig<typeof inventoryEnv>;
