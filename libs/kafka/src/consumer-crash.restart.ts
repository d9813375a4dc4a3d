import type { Consumer, ConsumerRunConfig } from 'kafkajs';

/** Options of {@link restartAfterCrash}. */
export interface RestartAfterCrashOptions {
  /** True once the owner is shutting the consumer down on purpose: no restart then. */
  isClosing: () => boolean;
  /** Told about every crash kafkajs will not restart, and every attempt that failed. */
  log: (message: string) => void;
  /** First delay before a restart; doubled per failed attempt. Default 1000 ms. */
  initialDelayMs?: number;
  /** Longest delay between attempts. Default 30 000 ms: a cluster that is down is tried twice a minute. */
  maxDelayMs?: number;
}

/**
 * Keeps `consumer` consuming after a crash kafkajs itself gives up on.
 *
 * kafkajs restarts a crashed consumer only when the error is retriable. Otherwise it disconnects,
 * emits `consumer.crash` with `restart: false` and stops for good: the process lives on, healthy
 * to every probe, and consumes nothing. Around a leader or coordinator change that happens for
 * errors that are not about our data: a leader election surfacing as a non-retriable error
 * (kafkajs#1008), NOT_LEADER_FOR_PARTITION outlasting the retries (kafkajs#1089, #335), and a
 * consumer group call that fails while the coordinator moves. The cure is what a restart of the
 * process would do, without losing the process: disconnect, connect, `run` again with the same
 * options (the subscription is kept), backing off while it fails. Offsets are those committed, so
 * records whose effects committed but whose offsets did not are delivered again: the inbox skips
 * them.
 *
 * @param consumer A consumer already subscribed and running with `runConfig`.
 * @param runConfig The options it was started with.
 */
export function restartAfterCrash(consumer: Consumer, runConfig: ConsumerRunConfig, options: RestartAfterCrashOptions): void {
  const initialDelayMs = options.initialDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  // Attempts since the group was last joined: the backoff grows while restarts keep failing.
  let failures = 0;
  let scheduled = false;

  const attempt = async () => {
    // Cleared before run(): a crash while run() joins schedules the next attempt itself.
    scheduled = false;
    if (options.isClosing()) return;
    try {
      // Clears what a failed earlier attempt left (kafkajs keeps a half-started group otherwise
      // and answers the next run() with "already running").
      await consumer.disconnect().catch(() => undefined);
      await consumer.connect();
      await consumer.run(runConfig);
    } catch (error) {
      options.log(`Kafka consumer restart failed (${(error as Error).message}); retrying`);
      schedule();
    }
  };
  const schedule = () => {
    if (scheduled || options.isClosing()) return;
    scheduled = true;
    const delayMs = Math.min(initialDelayMs * 2 ** failures, maxDelayMs);
    failures += 1;
    setTimeout(() => void attempt(), delayMs);
  };

  consumer.on(consumer.events.GROUP_JOIN, () => {
    failures = 0;
  });
  consumer.on(consumer.events.CRASH, (event) => {
    const { error, restart } = event.payload;
    if (restart || options.isClosing()) return;
    options.log(`Kafka consumer crashed and kafkajs will not restart it (${error.name}: ${error.message}); restarting it`);
    schedule();
  });
}
