import type { Admin, Kafka } from 'kafkajs';
import type { KafkaConfig } from './kafka.config.js';
import { retryUntil } from './retry-until.js';

/** How long {@link ensureTopics} keeps trying by default: a fresh broker elects leaders in seconds. */
const ENSURE_TOPICS_TIMEOUT_MS = 60_000;

/** True when every error in `error` (a kafkajs aggregate or a single one) is TOPIC_ALREADY_EXISTS. */
function isAlreadyExists(error: unknown): boolean {
  const errors = (error as { errors?: unknown[] }).errors ?? [error];
  return errors.length > 0 && errors.every((one) => (one as { type?: string }).type === 'TOPIC_ALREADY_EXISTS');
}

/**
 * Creates `topic` unless it exists. A concurrent creator (another replica starting at the same
 * moment) makes the broker answer TOPIC_ALREADY_EXISTS: that is success, not an error. Leaders are
 * awaited separately by {@link waitForLeaders}: kafkajs' own wait retries only LEADER_NOT_AVAILABLE
 * and threw "This server does not host this topic-partition" while the new topic's metadata was
 * still propagating to the broker, failing a start-up that would have succeeded a moment later.
 */
async function createTopic(admin: Admin, topic: string, numPartitions: number, settings: TopicSettings): Promise<boolean> {
  const { replicationFactor = -1, minInsyncReplicas = -1 } = settings;
  const configEntries = minInsyncReplicas > 0 ? [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }] : [];
  try {
    return await admin.createTopics({ waitForLeaders: false, topics: [{ topic, numPartitions, replicationFactor, configEntries }] });
  } catch (error) {
    if (isAlreadyExists(error)) return false;
    throw error;
  }
}

/**
 * Resolves when every partition of `topics` has a leader. Needed even when another process
 * created the topics: `createTopics` then reports "already exists" at once, while the new
 * partitions may still be electing leaders, and the first produce or offset lookup would fail.
 * A topic missing from the metadata (UNKNOWN_TOPIC_OR_PARTITION) is waited for like a leader.
 */
async function waitForLeaders(admin: Admin, topics: string[], deadline: number): Promise<void> {
  await retryUntil(deadline, `Topics ${topics.join(', ')} not ready`, async () => {
    const metadata = await admin.fetchTopicMetadata({ topics });
    const leaderless = metadata.topics.filter((topic) => topic.partitions.length === 0 || topic.partitions.some((p) => p.leader < 0));
    if (leaderless.length > 0) throw new Error(`no leader yet for ${leaderless.map((topic) => topic.name).join(', ')}`);
  });
}

/** How {@link ensureTopics} creates a missing topic, and how long it keeps trying. */
export interface TopicSettings {
  /**
   * Replicas per partition. Default -1: the broker's `default.replication.factor` (1 on the local
   * single node, 3 on the local cluster). More replicas survive more broker losses and cost disk
   * and replication traffic; above the number of live brokers the creation fails.
   */
  replicationFactor?: number;
  /**
   * The topic's `min.insync.replicas`. Default -1: the broker's. With acks=all, a write is refused
   * (NOT_ENOUGH_REPLICAS) while fewer replicas are in sync: 2 of 3 keeps every acknowledged write
   * on two brokers; higher refuses writes sooner when brokers are down.
   */
  minInsyncReplicas?: number;
  /** How long every step is retried while the cluster settles. Default 60 s. */
  timeoutMs?: number;
}

/** The {@link TopicSettings} an app's Kafka configuration asks for. */
export function topicSettings(
  config: Pick<KafkaConfig, 'KAFKA_TOPIC_REPLICATION_FACTOR' | 'KAFKA_TOPIC_MIN_INSYNC_REPLICAS'>,
): TopicSettings {
  return { replicationFactor: config.KAFKA_TOPIC_REPLICATION_FACTOR, minInsyncReplicas: config.KAFKA_TOPIC_MIN_INSYNC_REPLICAS };
}

/**
 * Creates the topics that are missing and waits until every partition of every topic has a
 * leader, so a service never depends on broker auto-creation (off in most production clusters)
 * and a consumer never starts on a topic that does not exist yet. Safe to run from several
 * processes at once on a fresh broker: each step is retried until `settings.timeoutMs`.
 * Topics that exist are left as they are (their replication is an operator's decision).
 * Returns the topics this call created.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], numPartitions: number, settings: TopicSettings = {}): Promise<string[]> {
  const wanted = [...new Set(topics)];
  const deadline = Date.now() + (settings.timeoutMs ?? ENSURE_TOPICS_TIMEOUT_MS);
  const admin = kafka.admin();
  await retryUntil(deadline, 'Connecting the Kafka admin client', () => admin.connect());
  try {
    const created = new Set<string>();
    await retryUntil(deadline, `Creating topics ${wanted.join(', ')}`, async () => {
      const existing = new Set(await admin.listTopics());
      for (const topic of wanted.filter((one) => !existing.has(one) && !created.has(one))) {
        if (await createTopic(admin, topic, numPartitions, settings)) created.add(topic);
      }
    });
    await waitForLeaders(admin, wanted, deadline);
    return [...created];
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
