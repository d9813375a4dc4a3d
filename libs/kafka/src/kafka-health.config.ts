import { env, type EnvConfig } from '@libs/config';

/** Environment variables of the `GET /health` Kafka probe (apps that talk to Kafka). */
export const kafkaHealthEnv = {
  KAFKA_HEALTH_CACHE_MS: env.integer({
    description:
      'How long GET /health reuses its last Kafka answer, up or down; concurrent calls share the probe in flight, so a flood of health checks costs the broker at most one metadata request per interval. Higher is cheaper for the broker and reports an outage (or its end) up to that much later; 0 probes on every call',
    default: 2000,
    min: 0,
    max: 60_000,
  }),
};

/** What {@link kafkaHealthEnv} yields, defaults applied. */
export type KafkaHealthConfig = EnvConfig<typeof kafkaHealthEnv>;
