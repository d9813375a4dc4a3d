import { logLevel } from 'kafkajs';
import { loadConfig } from '@libs/config';
import { deadLetterTopic } from '@libs/envelope';
import { createKafka, ensureTopics, kafkaEnv, topicSettings } from '@libs/kafka';
import { services } from '../services/service-catalog.js';
import { waitFor } from '@tools/test-support';
import { toolingKafkaSecurity } from './local-kafka-access.js';

/** A group nobody uses: asking for its coordinator makes a fresh broker create `__consumer_offsets`. */
const WARM_UP_GROUP = 'npm-start-coordinator-warm-up';

/**
 * What `npm start` does on the broker before it starts the apps: creates every topic they produce
 * and consume (and the dead-letter topics), with the settings the apps would use, and waits until
 * the group coordinator answers. Each app does the same at its own start-up, but on a fresh broker
 * two apps at once logged kafkajs ERRORs for it ("Topic creation errors": the other app created it
 * first; "This server does not host this topic-partition": a new topic's leader not yet elected;
 * "The group coordinator is not available": Kafka creates `__consumer_offsets` on the first group's
 * request). Harmless, and retried, but the first thing a newcomer reads. Its own client logs
 * nothing: the same transient answers are retried here until the deadline.
 */
export async function prepareLocalTopics(brokers: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const schema = kafkaEnv('local-stack');
  const config = loadConfig(
    {
      KAFKA_TOPIC_PARTITIONS: schema.KAFKA_TOPIC_PARTITIONS,
      KAFKA_TOPIC_REPLICATION_FACTOR: schema.KAFKA_TOPIC_REPLICATION_FACTOR,
      KAFKA_TOPIC_MIN_INSYNC_REPLICAS: schema.KAFKA_TOPIC_MIN_INSYNC_REPLICAS,
    },
    env,
  );
  const kafka = createKafka({ brokers, clientId: 'npm-start', security: toolingKafkaSecurity(), logLevel: logLevel.NOTHING });
  const topics = services.flatMap((service) => [...service.produces, ...service.consumes, ...service.consumes.map(deadLetterTopic)]);
  await ensureTopics(kafka, topics, config.KAFKA_TOPIC_PARTITIONS, topicSettings(config));
  const admin = kafka.admin();
  await admin.connect();
  try {
    await waitFor(
      () =>
        admin.describeGroups([WARM_UP_GROUP]).then(
          () => true,
          () => false,
        ),
      {
        timeoutMs: 60_000,
        description: 'the Kafka group coordinator',
      },
    );
  } finally {
    await admin.disconnect();
  }
}
