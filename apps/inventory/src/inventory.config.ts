import { commandsEnv } from '@app/commands';
import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv } from '@app/http';
import { telemetryEnv } from '@app/telemetry';
import { inboxEnv } from '@app/inbox';
import { consumerLagEnv, kafkaEnv } from '@app/kafka';
import { outboxEnv } from '@app/outbox';

export const inventoryEnv = {
  INVENTORY_PORT: env.port({ description: 'HTTP port of the inventory service (health, stock admin)', default: 3001 }),
  ...httpEnv,
  ...telemetryEnv,
  ...databaseEnv('inventory'),
  ...kafkaEnv('inventory'),
  ...consumerLagEnv,
  ...outboxEnv,
  ...inboxEnv,
  ...commandsEnv('LOYALTY', 'the loyalty service'),
};

export type InventoryConfig = EnvConfig<typeof inventoryEnv>;
