import { commandsEnv } from '@libs/commands';
import { authEnv, authLaptopSettings, clientCredentialsEnv } from '@libs/auth';
import { env, type EnvConfig, nodeEnv, runStartChecks } from '@libs/config';
import { databaseEnv, databaseLaptopSettings, databaseSsl } from '@libs/database';
import { httpEnv, httpLaptopSettings } from '@libs/http';
import { telemetryEnv } from '@libs/telemetry';
import { inboxEnv } from '@libs/inbox';
import { messageSigning, messageVerification } from '@libs/envelope';
import { consumerLagEnv, kafkaClientOptions, kafkaEnv, kafkaHealthEnv, kafkaLaptopSettings } from '@libs/kafka';
import { outboxEnv } from '@libs/outbox';

export const inventoryEnv = {
  INVENTORY_PORT: env.port({ description: 'HTTP port of the inventory service (health, stock admin)', default: 3001 }),
  ...nodeEnv,
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

/**
 * Every check of {@link inventoryEnv} that needs no connection: what `NODE_ENV=production` refuses, the envelope signing key and verify keys, Kafka's TLS, SASL and inflation cap, Postgres TLS.
 * Run right after `loadConfig`, before the first connection, so that a missing or insecure
 * variable is reported in seconds whatever is reachable. Throws one `ConfigValidationError`
 * naming every problem; returns the warnings of the opt-outs in use, for the caller to log.
 */
export function inventoryStartChecks(config: InventoryConfig): string[] {
  return runStartChecks(
    config.NODE_ENV,
    () => [...httpLaptopSettings(config), ...authLaptopSettings(config), ...databaseLaptopSettings(config), ...kafkaLaptopSettings(config)],
    [() => databaseSsl(config), () => messageSigning(config), () => messageVerification(config), () => kafkaClientOptions(config)],
  );
}
