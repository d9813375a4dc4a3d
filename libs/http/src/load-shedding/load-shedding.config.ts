import { env, type EnvConfig } from '@libs/config';

/**
 * When `POST /orders` (or any route marked `@ShedWhenBacklogged()`) is refused with 503: the bounds
 * of the loop's backlog. Accepting more than the loop finishes makes every order slower and, past a
 * point, fewer orders finish per second (goodput collapses, see docs/decisions/0010-load-shedding-at-the-door.md): refusing at
 * the door keeps what is accepted fast and complete.
 */
export const loadSheddingEnv = {
  LOAD_SHED_ENABLED: env.boolean({
    description:
      'Refuse new work with 503 and Retry-After while a backlog figure is past its bound; off accepts everything, however late it finishes',
    default: true,
  }),
  LOAD_SHED_SAMPLE_INTERVAL_MS: env.integer({
    description:
      'How often the backlog figures are read (one bounded query each); shedding starts and stops at most this late. Lower reacts sooner and costs more queries',
    default: 500,
    min: 50,
    max: 60_000,
  }),
  LOAD_SHED_RETRY_AFTER_SECONDS: env.integer({
    description: 'Retry-After of a shed request; higher spreads retries out more, but leaves the loop idle longer after it drains',
    default: 1,
    min: 1,
    max: 3600,
  }),
  LOAD_SHED_LOG_INTERVAL_MS: env.integer({
    description:
      'Shortest time between two warn lines about shed requests: the first refusal after a quiet interval is logged at once, the ones after it are counted into one line per interval, so an overload does not also flood the log (http_requests_shed_total counts every refusal, and a shed request gets no request line of its own)',
    default: 10_000,
    min: 100,
    max: 3_600_000,
  }),
  LOAD_SHED_TARGET_LATENCY_MS: env.integer({
    description:
      "Mean time a shed route's request may take in this process: past (completions per second) x this many requests in flight, new ones are refused at once, before their body is read. Lower keeps accepted requests faster and sheds sooner; keep it well under DATABASE_CONNECT_TIMEOUT_MS",
    default: 500,
    min: 10,
    max: 60_000,
  }),
  LOAD_SHED_IN_FLIGHT_MIN: env.integer({
    description:
      'Requests in flight always admitted, whatever the completion rate: the bound while the rate is unknown (start-up, after an idle spell). Lower sheds a burst on a cold process; keep it above DATABASE_POOL_SIZE',
    default: 50,
    min: 1,
    max: 100_000,
  }),
  LOAD_SHED_EVENT_LOOP_DELAY_MAX_MS: env.integer({
    description:
      'Mean lateness of a 20 ms timer of this process over a sample interval past which new work is refused: the loop is too busy to read what waits in its sockets. Lower sheds on shorter stalls, a garbage collection pause included',
    default: 100,
    min: 1,
    max: 60_000,
  }),
  LOAD_SHED_OUTBOX_PENDING_MAX: env.integer({
    description:
      'Unpublished outbox rows past which new work is refused: the relay or Kafka is behind. Counted up to this many plus one, so a higher bound costs a longer count',
    default: 5000,
    min: 1,
    max: 1_000_000,
  }),
  LOAD_SHED_OUTBOX_AGE_MAX_MS: env.integer({
    description: 'Age of the oldest unpublished outbox row past which new work is refused',
    default: 10_000,
    min: 1,
    max: 86_400_000,
  }),
  LOAD_SHED_DB_POOL_WAITING_MAX: env.integer({
    description:
      'Requests waiting for a database connection of this process past which new work is refused (the pool is DATABASE_POOL_SIZE). A backstop: a short queue is normal under load and LOAD_SHED_TARGET_LATENCY_MS bounds the time spent in it; lower sheds at the first queueing',
    default: 1000,
    min: 1,
    max: 100_000,
  }),
};

export type LoadSheddingConfig = EnvConfig<typeof loadSheddingEnv>;
