import { createKafka, ensureTopics } from '@app/kafka';
import { fetchEndOffsets } from './end-offsets.js';
import { uniqueName } from './unique-name.js';

/**
 * Commits, for a consumer group nobody has used yet, the current end offset of every partition of
 * `topics`, so the service that joins the group next reads only what is published from now on.
 *
 * Why tests need it: the apps subscribe with `fromBeginning: true` (right for a new production
 * group), but a fresh group per test run on the shared broker would then first replay the whole
 * history of the topic, every earlier run's events included: slow, and every replayed answer for
 * an order this run does not know is a poison message to retry and dead-letter.
 */
export async function startGroupAtEnd(brokers: string[], groupId: string, topics: string[], partitions = 3): Promise<void> {
  const kafka = createKafka({ brokers, clientId: uniqueName('test-group-position') });
  // The topics must exist before offsets can be committed for them; the apps create them the same way.
  await ensureTopics(kafka, topics, partitions);
  const admin = kafka.admin();
  await admin.connect();
  const ends = await Promise.all(topics.map(async (topic) => ({ topic, offsets: await fetchEndOffsets(admin, topic) })));
  await admin.disconnect();

  // kafkajs's own admin.setOffsets does the same with one consumer per topic and a 5 s fetch
  // wait each; a seek by a group member commits the offset, and one short fetch makes it happen.
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 50, allowAutoTopicCreation: false });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    const fetched = new Promise<void>((resolve) => consumer.on(consumer.events.FETCH, () => resolve()));
    await consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => undefined });
    consumer.pause(topics.map((topic) => ({ topic })));
    for (const { topic, offsets } of ends) {
      for (const { partition, high } of offsets) consumer.seek({ topic, partition, offset: high });
    }
    await fetched;
  } finally {
    await consumer.disconnect();
  }
  for (const { topic, offsets } of ends) {
    const committed = await committedOffsets(brokers, groupId, topic);
    const missed = offsets.filter(({ partition, high }) => committed[partition] !== Number(high));
    if (missed.length > 0) throw new Error(`Could not position ${groupId} at the end of ${topic}: committed ${JSON.stringify(committed)}`);
  }
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
