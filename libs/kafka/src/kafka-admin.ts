import type { Admin, Kafka } from 'kafkajs';

const LEADER_WAIT_MS = 30_000;

/**
 * Resolves when every partition of `topics` has a leader. Needed even when another process
 * created the topics: `createTopics` then reports "already exists" at once, while the new
 * partitions may still be electing leaders, and the first produce or offset lookup would fail.
 */
async function waitForLeaders(admin: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + LEADER_WAIT_MS;
  let lastProblem = 'no metadata yet';
  while (Date.now() < deadline) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      const leaderless = metadata.topics.filter((topic) => topic.partitions.length === 0 || topic.partitions.some((p) => p.leader < 0));
      if (leaderless.length === 0) return;
      lastProblem = `no leader yet for ${leaderless.map((topic) => topic.name).join(', ')}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Topics ${topics.join(', ')} not ready after ${LEADER_WAIT_MS} ms: ${lastProblem}`);
}

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
    await waitForLeaders(admin, [...new Set(topics)]);
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
