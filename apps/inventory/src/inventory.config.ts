import { commandsEnv } from '@libs/commands';
import { authEnv, clientCredentialsEnv } from '@libs/auth';
import { env, type EnvConfig } from '@libs/config';
import { databaseEnv } from '@libs/database';
import { httpEnv } from '@libs/http';
import { telemetryEnv } from '@libs/telemetry';
import { inboxEnv } from '@libs/inbox';
import { consumerLagEnv, kafkaEnv, kafkaHealthEnv } from '@libs/kafka';
import { outboxEnv } from '@libs/outbox';

export const inventoryEnv = {
  INVENTORY_PORT: env.port({ description: 'HTTP port of the inventory service (health, stock admin)', default: 3001 }),
  ...httpEnv,
  ...authEnv,
  ...telemetryEnv,
  ...databaseEnv('inventory'),
  ...kafkaEnv('inventory'),
  ...consumerLagEnv,
  ...kafkaHealthEnv,
  ...outboxEnv,
  ...inboxEnv,
  ...commandsEnv('LOYALTY', 'the loyalty service'),
  // Inventory's own credentials for loyalty (client credentials): loyalty refuses it without them.
  ...clientCredentialsEnv,
};

export type InventoryConfig = EnvConfig<typeof inventoryEnv>;
