import type { Kafka } from 'kafkajs';

/**
 * Creates the topics that are missing, so a service never depends on broker auto-creation (off in
 * most production clusters) and a consumer never starts on a topic that does not exist yet.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], numPartitions: number): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = [...new Set(topics)].filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions, replicationFactor: -1 })),
      });
    }
    return missing;
  } finally {
    await admin.disconnect();
  }
}

/** Resolves when the cluster answers a metadata request; throws otherwise. */
export async function describeCluster(kafka: Kafka): Promise<{ brokers: number; controller: number | null }> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const cluster = await admin.describeCluster();
    return { brokers: cluster.brokers.length, controller: cluster.controller };
  } finally {
    await admin.disconnect();
  }
}
