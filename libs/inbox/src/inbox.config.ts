import { env, type EnvConfig } from '@libs/config';
import { messageSigningEnv } from '@libs/envelope';

export const inboxEnv = {
  // Verification of envelope signatures: refused records are dead-lettered before they claim.
  ...messageSigningEnv,
  INBOX_MAX_ATTEMPTS: env.integer({
    description: 'Handler attempts per message before it is dead-lettered; between attempts its partition waits (paused), the others go on',
    default: 5,
    min: 1,
    max: 100,
  }),
  INBOX_RETRY_BASE_MS: env.integer({
    description: 'Delay before the second attempt; doubles per attempt, with jitter',
    default: 200,
    min: 0,
    max: 60_000,
  }),
  INBOX_RETRY_MAX_MS: env.integer({
    description: 'Cap of the delay between attempts (the failing partition is paused meanwhile, so the consumer session is not held)',
    default: 5000,
    min: 0,
    max: 60_000,
  }),
  INBOX_BATCH_SIZE: env.integer({
    description:
      'Most messages handled in one transaction: of one partition, or of the partitions of one fetch together while they fit; 1 means a transaction per message. Larger batches cost fewer commits but hold their row locks longer, and a failing message replays its whole batch one by one',
    default: 100,
    min: 1,
    max: 10_000,
  }),
  INBOX_LINGER_MS: env.integer({
    description:
      "Least time between two fetches of a partition's records while it is busy: a record after a quiet spell is handled at once, then the next fetch waits out the rest of this, so under load one fetch, one inbox transaction and one offset commit carry every record that arrived meanwhile. Higher packs more records per transaction at up to this much latency under load; 0 fetches again as soon as a batch is handled",
    // 40, not 10: at 150 orders/s on two cores, 7-10 % less CPU per order and a lower, steadier p99
    // (docs/performance.md, "Lingers of 40 ms"); a message after a quiet spell still goes at once.
    default: 40,
    min: 0,
    max: 1000,
  }),
  INBOX_COMMIT_INTERVAL_MS: env.integer({
    description:
      'Least time between two offset commits of a busy consumer: the first batch after a quiet spell is committed at once, then what is handled meanwhile goes in one commit per interval (a trailing one for the last). Fewer OffsetCommit requests; a crash or a rebalance redelivers up to this much of what was already handled, which the inbox skips as duplicates. A commit runs beside the fetch loop, one at a time, never holding a batch; 0 commits after every batch, or as soon as the commit before it is answered',
    default: 100,
    min: 0,
    max: 10_000,
  }),
  INBOX_RETENTION_MS: env.integer({
    description: 'Inbox rows older than this are deleted; keep it longer than a message can be redelivered (topic retention)',
    default: 14 * 24 * 3_600_000,
    min: 60_000,
    max: 3650 * 24 * 3_600_000,
  }),
  INBOX_CLEANUP_CRON: env.cron({ description: 'When inbox cleanup runs (cron syntax with seconds)', default: '30 */5 * * * *' }),
  INBOX_CLEANUP_BATCH_SIZE: env.integer({
    description: 'Rows deleted per statement by inbox cleanup; bounds lock time and WAL bursts',
    default: 1000,
    min: 1,
    max: 100_000,
  }),
};

export type InboxConfig = EnvConfig<typeof inboxEnv>;

export const INBOX_CONFIG = Symbol('INBOX_CONFIG');
