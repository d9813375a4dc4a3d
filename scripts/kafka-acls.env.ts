import { env } from '@libs/config';

/** What `npm run kafka:acls` (scripts/kafka-acls.ts) reads besides the KAFKA_* client variables. */
export const kafkaAclsEnv = {
  KAFKA_ACLS_TIMEOUT_MS: env.integer({
    description: 'How long `npm run kafka:acls` (and the kafka-acls Job) waits for the brokers before it gives up',
    default: 120_000,
    min: 1,
  }),
};
