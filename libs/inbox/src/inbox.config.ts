import { env, type EnvConfig } from '@libs/config';
import { messageVerificationEnv } from '@libs/envelope';

export const inboxEnv = {
  // Verification of envelope signatures (public keys only): refused records are dead-lettered before they claim.
  ...messageVerificationEnv,
  INBOX_MAX_ATTEMPTS: env.integer({
    description: 'Handler attempts per message before it is dead-lettered; between attempts its partition waits (paused), the others go on',
    default: 5,
    min: 1,
    max: 100,
  }),
  INBOX_CRASH_LOOP_DEATHS: env.integer({
    description:
      'Deaths of the consumer process with one record in work, in a row, before that record is dead-lettered as CRASHED_CONSUMER instead of being handled again (the crash-loop breaker; a batch that was in work at a death is first worked one record at a time to find the record). Lower gives up sooner on a record that may have died by chance; each batch costs two short statements on inbox_work_marks',
    default: 3,
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
      'Most messages handled in one transaction (with INBOX_PARTITION_IN_ONE_TRANSACTION_ENABLED or INBOX_FETCH_IN_ONE_TRANSACTION_ENABLED): of one partition, or of the partitions of one fetch together while they fit; 1 means a transaction per message. Larger batches cost fewer commits but hold their row locks longer, and a failing message replays its whole batch one by one',
    default: 100,
    min: 1,
    max: 10_000,
  }),
  INBOX_LINGER_MS: env.integer({
    description:
      "Least time between two fetches of a partition's records while it is busy: a record after a quiet spell is handled at once, then the next fetch waits out the rest of this, so under load one fetch, one inbox transaction and one offset commit carry every record that arrived meanwhile. Higher packs more records per transaction at up to this much latency under load; 0 fetches again as soon as a batch is handled",
    // Why 40 ms: docs/decisions/0001-lingers-of-40-ms.md.
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
  // The speed-up layers (layers/inbox.layers.ts): each is off with `false`; with all off the inbox is its core alone.
  INBOX_PARTITION_IN_ONE_TRANSACTION_ENABLED: env.boolean({
    description:
      "Speed-up layer: a partition's records share one transaction (one claim, one commit) up to INBOX_BATCH_SIZE; false runs a transaction per record (docs/decisions/0201-partition-in-one-transaction.md)",
    default: true,
  }),
  INBOX_FETCH_IN_ONE_TRANSACTION_ENABLED: env.boolean({
    description:
      'Speed-up layer: the partitions of one fetch share one transaction while INBOX_BATCH_SIZE has room; false runs each partition on its own (docs/decisions/0202-fetch-in-one-transaction.md)',
    default: true,
  }),
  INBOX_OFFSET_COMMITS_PER_INTERVAL_ENABLED: env.boolean({
    description:
      'Speed-up layer: offsets are committed at most once per INBOX_COMMIT_INTERVAL_MS, beside the fetch loop; false lets kafkajs commit after every batch (docs/decisions/0203-offset-commits-per-interval.md)',
    default: true,
  }),
  INBOX_FETCH_LINGER_ENABLED: env.boolean({
    description:
      'Speed-up layer: a busy consumer fetches at most once per INBOX_LINGER_MS; false fetches again as soon as a batch is handled (docs/decisions/0204-fetch-linger.md)',
    default: true,
  }),
  INBOX_RETENTION_MS: env.integer({
    description:
      "Inbox rows older than this are forgotten (a day's partition is dropped whole once every row in it was received longer ago); keep it longer than a message can be redelivered (topic retention)",
    default: 14 * 24 * 3_600_000,
    min: 60_000,
    max: 3650 * 24 * 3_600_000,
  }),
  INBOX_CLEANUP_CRON: env.cron({
    description: 'When inbox cleanup runs (cron syntax with seconds): creates the partitions ahead, drops those past retention',
    default: '30 */5 * * * *',
  }),
  INBOX_CLEANUP_BATCH_SIZE: env.integer({
    description:
      'Rows deleted per statement by inbox cleanup from the default partition (message ids outside every day partition); bounds lock time and WAL bursts',
    default: 1000,
    min: 1,
    max: 100_000,
  }),
  INBOX_PARTITIONS_AHEAD_DAYS: env.integer({
    description:
      'Day partitions of inbox_messages kept ready after today, created by cleanup: the days the table still takes rows in their partition if cleanup stops running (an alert fires below one)',
    default: 3,
    min: 1,
    max: 60,
  }),
};

export type InboxConfig = EnvConfig<typeof inboxEnv>;

export const INBOX_CONFIG = Symbol('INBOX_CONFIG');
