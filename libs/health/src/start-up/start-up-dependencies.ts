import { type DatabaseConfig, postgresLoginRefused, probePostgres } from '@libs/database';
import { type KafkaClientOptions, kafkaCredentialsRefused, probeKafka } from '@libs/kafka';
import type { StartUpDependency } from './wait-for-dependencies.js';

/** The app's database, as `/health` names it: answers once `SELECT 1` does; a refused login ends the wait. */
export function databaseDependency(config: DatabaseConfig): StartUpDependency {
  return { name: 'database', check: () => probePostgres(config), refusal: postgresLoginRefused };
}

/**
 * The app's Kafka cluster, as `/health` names it: answers once its metadata does and `prepare`
 * (creating the app's topics, checking their retention) succeeded, so a broker lost between the
 * two is waited for as well. Refused SASL credentials, or a configuration error `prepare` throws,
 * end the wait.
 */
export function kafkaDependency(options: KafkaClientOptions, prepare: () => Promise<void> = async () => undefined): StartUpDependency {
  return {
    name: 'kafka',
    check: async () => {
      await probeKafka(options);
      await prepare();
    },
    refusal: kafkaCredentialsRefused,
  };
}
