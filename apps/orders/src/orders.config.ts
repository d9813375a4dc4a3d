import { authEnv, authLaptopSettings } from '@libs/auth';
import { env, type EnvConfig, nodeEnv, runStartChecks } from '@libs/config';
import { databaseEnv, databaseLaptopSettings, databaseSsl } from '@libs/database';
import { httpEnv, httpLaptopSettings, loadSheddingEnv } from '@libs/http';
import { telemetryEnv } from '@libs/telemetry';
import { idempotencyEnv } from '@libs/idempotency';
import { inboxEnv } from '@libs/inbox';
import { messageSigning, messageVerification } from '@libs/envelope';
import { consumerLagEnv, kafkaClientOptions, kafkaEnv, kafkaHealthEnv, kafkaLaptopSettings } from '@libs/kafka';
import { outboxEnv } from '@libs/outbox';

export const ordersEnv = {
  ORDERS_PORT: env.port({ description: 'HTTP port of the orders service', default: 3000 }),
  ...nodeEnv,
  ...httpEnv,
  ...authEnv,
  ...telemetryEnv,
  ...databaseEnv('orders'),
  ...kafkaEnv('orders'),
  ...consumerLagEnv,
  ...kafkaHealthEnv,
  ...outboxEnv,
  ...inboxEnv,
  ...loadSheddingEnv,
  ORDERS_SHED_PENDING_MAX: env.integer({
    description:
      'Orders placed and not yet final past which POST /orders is refused with 503 (any stage behind orders shows here: the relay, Kafka, inventory). About the orders the loop finishes in a few seconds; higher lets latency grow before shedding, lower sheds bursts the loop would absorb',
    default: 2000,
    min: 1,
    max: 1_000_000,
  }),
  ORDERS_CUSTOMER_RATE_PER_S: env.integer({
    description:
      'Orders one customer (token subject) may place per second, sustained, with or without an Idempotency-Key; past it (and ORDERS_CUSTOMER_BURST) POST /orders answers 429 ORDERS.RATE_LIMITED with Retry-After while other customers are served. Per process: N replicas give a customer up to N times this. Far above a shopper; the bench spreads its load over 500 customers (about 3/s each at its peak); lower shares scarce stock more fairly',
    default: 5,
    min: 1,
    max: 100_000,
  }),
  ORDERS_CUSTOMER_BURST: env.integer({
    description:
      'Orders one customer may place at once after a quiet spell (the token bucket of ORDERS_CUSTOMER_RATE_PER_S holds this many). Lower bounds what one customer takes in a burst; the tests flood with up to 80 orders of one customer',
    default: 100,
    min: 1,
    max: 100_000,
  }),
  // Callers are customers: 1,000 new orders an hour is far above any shopper, and bounds what one
  // token can store in a day.
  ...idempotencyEnv({ keysPerCallerMax: 1000, keysWindowMs: 3_600_000 }),
};

export type OrdersConfig = EnvConfig<typeof ordersEnv>;

/**
 * Every check of {@link ordersEnv} that needs no connection: what `NODE_ENV=production` refuses, the envelope signing key and verify keys, Kafka's TLS, SASL and inflation cap, Postgres TLS.
 * Run right after `loadConfig`, before the first connection, so that a missing or insecure
 * variable is reported in seconds whatever is reachable. Throws one `ConfigValidationError`
 * naming every problem; returns the warnings of the opt-outs in use, for the caller to log.
 */
export function ordersStartChecks(config: OrdersConfig): string[] {
  return runStartChecks(
    config.NODE_ENV,
    () => [...httpLaptopSettings(config), ...authLaptopSettings(config), ...databaseLaptopSettings(config), ...kafkaLaptopSettings(config)],
    [() => databaseSsl(config), () => messageSigning(config), () => messageVerification(config), () => kafkaClientOptions(config)],
  );
}
