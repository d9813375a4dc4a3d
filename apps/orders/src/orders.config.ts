import { authEnv } from '@libs/auth';
import { env, type EnvConfig } from '@libs/config';
import { databaseEnv } from '@libs/database';
import { httpEnv, loadSheddingEnv } from '@libs/http';
import { telemetryEnv } from '@libs/telemetry';
import { idempotencyEnv } from '@libs/idempotency';
import { inboxEnv } from '@libs/inbox';
import { consumerLagEnv, kafkaEnv, kafkaHealthEnv } from '@libs/kafka';
import { outboxEnv } from '@libs/outbox';

export const ordersEnv = {
  ORDERS_PORT: env.port({ description: 'HTTP port of the orders service', default: 3000 }),
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
  // Callers are customers: 1,000 new orders an hour is far above any shopper, and bounds what one
  // token can store in a day.
  ...idempotencyEnv({ keysPerCallerMax: 1000, keysWindowMs: 3_600_000 }),
};

export type OrdersConfig = EnvConfig<typeof ordersEnv>;
