import { commandsEnv } from '@app/commands';
import { authEnv, clientCredentialsEnv } from '@app/auth';
import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv } from '@app/http';
import { telemetryEnv } from '@app/telemetry';
import { inboxEnv } from '@app/inbox';
import { consumerLagEnv, kafkaEnv, kafkaHealthEnv } from '@app/kafka';
import { outboxEnv } from '@app/outbox';

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
