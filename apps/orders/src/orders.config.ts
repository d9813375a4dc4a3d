import { authEnv } from '@app/auth';
import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv } from '@app/http';
import { telemetryEnv } from '@app/telemetry';
import { idempotencyEnv } from '@app/idempotency';
import { inboxEnv } from '@app/inbox';
import { consumerLagEnv, kafkaEnv } from '@app/kafka';
import { outboxEnv } from '@app/outbox';

export const ordersEnv = {
  ORDERS_PORT: env.port({ description: 'HTTP port of the orders service', default: 3000 }),
  ...httpEnv,
  ...authEnv,
  ...telemetryEnv,
  ...databaseEnv('orders'),
  ...kafkaEnv('orders'),
  ...consumerLagEnv,
  ...outboxEnv,
  ...inboxEnv,
  ...idempotencyEnv,
};

export type OrdersConfig = EnvConfig<typeof ordersEnv>;
