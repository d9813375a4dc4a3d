import { env, envDefault } from '@libs/config';
import { outboxEnv } from '@libs/outbox';

/** What `npm run bench`'s relay benchmark reads (outbox-relay.bench.ts), beside the relay's own OUTBOX_* variables. */
export const relayBenchEnv = {
  BENCH_MESSAGES: env.integer({
    description: 'Messages per repetition, for the baseline and the relay alike',
    default: 10_000,
    min: 1,
    max: 1_000_000,
  }),
  BENCH_BATCH_SIZE: env.integer({
    description: "Messages per sendBatch, for both; the relay's OUTBOX_BATCH_SIZE",
    default: envDefault(outboxEnv.OUTBOX_BATCH_SIZE),
    min: 1,
    max: 2000,
  }),
  BENCH_REPETITIONS: env.integer({
    description: 'Measured repetitions of each throughput run, after one warm-up',
    default: 5,
    min: 1,
    max: 100,
  }),
  BENCH_LATENCY_SAMPLES: env.integer({
    description: 'Commit-to-ack samples per relay mode, after one warm-up; 0 skips the latency part',
    default: 10,
    min: 0,
    max: 1000,
  }),
};

/** What the benchmarks read besides the relay's, rendered into docs/configuration.md with {@link relayBenchEnv}. */
export const benchEnv = {
  ...relayBenchEnv,
  BENCH_APP_ENV: env.string({
    description: 'JSON object of variables given to every app a benchmark starts, to compare a setting against the defaults',
    default: '',
  }),
  IDLE_SETTLE_MS: env.integer({
    description:
      'How long the idle apps settle before their memory is read: by bench/idle-memory.ts, and by the suite before its end-to-end load (memory.idleRssMb)',
    default: 10_000,
    min: 0,
  }),
};
