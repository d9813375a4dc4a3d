import { authEnv } from '@app/auth';
import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv, loadSheddingEnv } from '@app/http';
import { telemetryEnv } from '@app/telemetry';
import { idempotencyEnv } from '@app/idempotency';
import { inboxEnv } from '@app/inbox';
import { consumerLagEnv, kafkaEnv, kafkaHealthEnv } from '@app/kafka';
import { outboxEnv } from '@app/outbox';

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
