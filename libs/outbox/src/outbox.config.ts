import { env, type EnvConfig } from '@libs/config';
import { messageSigningEnv } from '@libs/envelope';

/** Every outbox option, with its default and what changing it costs (see docs/configuration.md and docs/outbox.md). */
export const outboxEnv = {
  // The relay signs with this service's own MESSAGE_SIGNING_KEY when it is set.
  ...messageSigningEnv,
  OUTBOX_RELAY_ENABLED: env.boolean({
    description: 'Run the relay in this process; turn off in replicas that should only write',
    default: true,
  }),
  OUTBOX_POLL_INTERVAL_MS: env.integer({
    description: 'Relay poll interval: the latency floor when a LISTEN wake-up is missed; lower costs more idle queries',
    default: 1000,
    min: 10,
    max: 3_600_000,
  }),
  OUTBOX_LINGER_MS: env.integer({
    description:
      'Least time between the starts of two relay cycles that wake-ups ask for: a commit after a quiet spell is published at once, while under load each cycle carries what was committed meanwhile (one transaction and one Kafka produce for many rows instead of one per commit). Higher packs more rows per cycle at the cost of up to this much latency under load; 0 starts a cycle on every wake-up',
    // Why 40: the CPU per order and p99 it buys at 150/s, docs/decisions/0001-lingers-of-40-ms.md.
    default: 40,
    min: 0,
    max: 1000,
  }),
  OUTBOX_LINGER_ENABLED: env.boolean({
    description:
      'Speed-up layer `linger` (layers/linger.layer.ts): let wake-ups closer than OUTBOX_LINGER_MS share one relay cycle. Off starts a cycle on every wake-up: lower latency under load, more CPU per order',
    default: true,
  }),
  OUTBOX_READ_AHEAD_ENABLED: env.boolean({
    description:
      'Speed-up layer `read-ahead` (layers/read-ahead.layer.ts): up to OUTBOX_BATCHES_PER_TRANSACTION batches per relay transaction, the next read (and the previous mark) while Kafka acknowledges. Off: one batch per transaction, read, send, mark, commit in turn; slower, and a crash republishes at most one batch',
    default: true,
  }),
  OUTBOX_RELAXED_COMMIT_ENABLED: env.boolean({
    description:
      'Speed-up layer `relaxed-commit` (layers/relaxed-commit.layer.ts): relay transactions commit with synchronous_commit = off. Off: each relay commit waits for its WAL flush, and a Postgres crash republishes nothing extra',
    default: true,
  }),
  OUTBOX_LISTEN_ENABLED: env.boolean({
    description: 'Wake the relay by LISTEN/NOTIFY right after each commit (one extra connection)',
    default: true,
  }),
  OUTBOX_BATCH_SIZE: env.integer({
    description: 'Rows per sendBatch; larger drains faster but holds the relay transaction longer',
    default: 500,
    min: 1,
    max: 2000,
  }),
  OUTBOX_PUBLISH_TIMEOUT_MS: env.integer({
    description:
      'Time one batch may spend sending to Kafka, fallbacks included, while the relay holds its lock and transaction; what is unsent then backs off. Lower frees the lock sooner when the broker hangs, but a slow broker may see more retries (and duplicates, which consumers dedupe)',
    default: 15_000,
    min: 100,
    max: 600_000,
  }),
  OUTBOX_BATCHES_PER_TRANSACTION: env.integer({
    description:
      'With the read-ahead layer: batches one relay transaction publishes under one lock, reading the next batch while Kafka acknowledges the current one; higher hides more Postgres work behind the broker, but a crash republishes every batch of the transaction (duplicates, which consumers dedupe) and the transaction stays open longer',
    default: 10,
    min: 1,
    max: 1000,
  }),
  OUTBOX_MAX_BATCHES_PER_CYCLE: env.integer({
    description: 'Batches one cycle may publish before yielding, so a backlog never starves shutdown',
    default: 20,
    min: 1,
    max: 1000,
  }),
  OUTBOX_RETRY_BASE_MS: env.integer({
    description: 'First retry delay of a row that failed to publish; doubles per attempt, with jitter',
    default: 500,
    min: 1,
    max: 3_600_000,
  }),
  OUTBOX_RETRY_MAX_MS: env.integer({
    description: 'Cap of the retry delay; also the worst extra latency after the broker comes back',
    default: 30_000,
    min: 1,
    max: 86_400_000,
  }),
  OUTBOX_UNAVAILABLE_RETRY_MAX_MS: env.integer({
    description:
      'Cap of the retry delay when Kafka says the partition or the cluster is unavailable (no leader, a leader change, too few in-sync replicas, a broker unreachable): a state that ends when the controller fences the dead broker, so a row retries at most this long after it, whatever backoff it has built up. Lower shortens the stall after a leader change; each retry costs one produce request per unavailable partition',
    default: 1000,
    min: 1,
    max: 86_400_000,
  }),
  OUTBOX_RETENTION_MS: env.integer({
    description:
      "Published rows older than this are forgotten: a day's partition is dropped whole once every row in it was published longer ago than this (none pending); keep enough to investigate incidents",
    default: 7 * 24 * 3_600_000,
    min: 0,
    max: 365 * 24 * 3_600_000,
  }),
  OUTBOX_CLEANUP_CRON: env.cron({
    description: 'When cleanup runs (cron syntax with seconds): creates the partitions ahead, drops those past retention',
    default: '0 */5 * * * *',
  }),
  OUTBOX_CLEANUP_BATCH_SIZE: env.integer({
    description:
      'Rows deleted per statement by cleanup from the default partition (ids outside every day partition); bounds lock time and WAL bursts',
    default: 1000,
    min: 1,
    max: 100_000,
  }),
  OUTBOX_PARTITIONS_AHEAD_DAYS: env.integer({
    description:
      'Day partitions of outbox_messages kept ready after today, created by cleanup: the days the table still takes rows in their partition if cleanup stops running (an alert fires below one)',
    default: 3,
    min: 1,
    max: 60,
  }),
};

export type OutboxConfig = EnvConfig<typeof outboxEnv>;

/** Injection token of the validated outbox configuration. */
export const OUTBOX_CONFIG = Symbol('OUTBOX_CONFIG');
