import { env } from '@libs/config';

/** Environment variables of the consumer lag gauge (apps that consume Kafka). */
export const consumerLagEnv = {
  KAFKA_LAG_INTERVAL_MS: env.integer({
    description:
      'How often the consumer group lag is read from Kafka for the kafka_consumer_lag gauge; lower is fresher, each read costs two admin requests per topic',
    default: 10_000,
    min: 500,
    max: 3_600_000,
  }),
};
