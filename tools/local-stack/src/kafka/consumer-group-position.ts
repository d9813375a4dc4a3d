import type { Kafka } from 'kafkajs';
import { loadConfig } from '@libs/config';
import { createKafka, ensureTopics, kafkaEnv } from '@libs/kafka';
import { fetchEndOffsets, uniqueName, waitFor } from '@tools/test-support';

/**
 * The partitions an app started with `env` creates its topics with (`KAFKA_TOPIC_PARTITIONS`, or
 * its default): a topic the test stack creates first must not differ from the app's own.
 */
export function topicPartitionsOf(env: NodeJS.ProcessEnv): number {
  return loadConfig({ KAFKA_TOPIC_PARTITIONS: kafkaEnv('local-stack').KAFKA_TOPIC_PARTITIONS }, env).KAFKA_TOPIC_PARTITIONS;
}

/**
 * Commits, for a consumer group nobody has used yet, the current end offset of every partition of
 * `topics`, so the service that joins the group next reads only what is published from now on.
 *
 * Why tests need it: the apps subscribe with `fromBeginning: true` (right for a new production
 * group), but a fresh group per test run on the shared broker would then first replay the whole
 * history of the topic, every earlier run's events included: slow, and every replayed answer for
 * an order this run does not know is a poison message to retry and dead-letter.
 */
export async function startGroupAtEnd(
  brokers: string[],
  groupId: string,
  topics: string[],
  partitions = topicPartitionsOf({}),
): Promise<void> {
  const kafka = createKafka({ brokers, clientId: uniqueName('test-group-position') });
  // The topics must exist before offsets can be committed for them; the apps create them the same way.
  await ensureTopics(kafka, topics, partitions);
  const admin = kafka.admin();
  await admin.connect();
  const ends = await Promise.all(topics.map(async (topic) => ({ topic, offsets: await fetchEndOffsets(admin, topic) })));
  await admin.disconnect();

  // A fresh broker creates __consumer_offsets on the first group request, and until then the
  // coordinator is "not available": one attempt can crash, so the whole positioning is retried.
  await waitFor(
    async () => {
      await withTimeout(positionOnce(kafka, groupId, topics, ends), ATTEMPT_TIMEOUT_MS, `positioning ${groupId}`);
      return verifyPosition(brokers, groupId, ends);
    },
    { timeoutMs: 60_000, intervalMs: 500, description: `consumer group ${groupId} positioned at the end of ${topics.join(', ')}` },
  );
}

const ATTEMPT_TIMEOUT_MS = 20_000;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

type TopicEnds = { topic: string; offsets: { partition: number; high: string }[] }[];

/**
 * Joins the group, seeks every partition to its end and lets one fetch commit that position.
 * kafkajs's own admin.setOffsets does the same with one consumer per topic and a 5 s fetch wait
 * each; a seek by a group member commits the offset, and one short fetch makes it happen.
 */
async function positionOnce(kafka: Kafka, groupId: string, topics: string[], ends: TopicEnds): Promise<void> {
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 50, allowAutoTopicCreation: false, retry: { retries: 2 } });
  const crashed = new Promise<never>((_, reject) => consumer.on(consumer.events.CRASH, (event) => reject(event.payload.error)));
  crashed.catch(() => undefined);
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => undefined });
    await Promise.race([joined, crashed]);
    consumer.pause(topics.map((topic) => ({ topic })));
    const fetchedAfterSeek = new Promise<void>((resolve) => consumer.on(consumer.events.FETCH, () => resolve()));
    for (const { topic, offsets } of ends) {
      for (const { partition, high } of offsets) consumer.seek({ topic, partition, offset: high });
    }
    await Promise.race([fetchedAfterSeek, crashed]);
  } finally {
    await consumer.disconnect();
  }
}

/** True when `groupId` has committed exactly the end offsets on every partition. */
async function verifyPosition(brokers: string[], groupId: string, ends: TopicEnds): Promise<boolean> {
  for (const { topic, offsets } of ends) {
    const committed = await committedOffsets(brokers, groupId, topic);
    if (offsets.some(({ partition, high }) => committed[partition] !== Number(high))) return false;
  }
  return true;
}

/** The committed offset of `groupId` on each partition of `topic` (-1 where none is committed). */
export async function committedOffsets(brokers: string[], groupId: string, topic: string): Promise<Record<number, number>> {
  const admin = createKafka({ brokers, clientId: uniqueName('test-group-offsets') }).admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Object.fromEntries(entry.partitions.map(({ partition, offset }) => [partition, Number(offset)]));
  } finally {
    await admin.disconnect();
  }
}

/** Deletes consumer groups a test created (best effort: a group with live members is skipped). */
export async function deleteConsumerGroups(brokers: string[], groupIds: string[]): Promise<void> {
  if (groupIds.length === 0) return;
  const admin = createKafka({ brokers, clientId: uniqueName('test-group-cleanup') }).admin();
  try {
    await admin.connect();
    await admin.deleteGroups(groupIds);
  } catch {
    // Empty groups expire on their own (offsets.retention.minutes); nothing depends on this.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
