import { createKafka } from '@libs/kafka';
import { readTopicUntil, type RecordedMessage, uniqueName } from '@tools/local-stack';

/**
 * The end offset of every partition of `topic` (empty when the topic does not exist: a dead-letter
 * topic nobody ever wrote to).
 */
export async function endOffsets(brokers: string[], topic: string): Promise<Record<number, number>> {
  const admin = createKafka({ brokers, clientId: uniqueName('chaos-check') }).admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return {};
    const offsets = await admin.fetchTopicOffsets(topic);
    return Object.fromEntries(offsets.map(({ partition, high }) => [partition, Number(high)]));
  } finally {
    await admin.disconnect();
  }
}

/** Every record of `topic` from offset 0 to its end now (the soak's broker is its own: all of it is this run's). */
export async function readWholeTopic(brokers: string[], topic: string): Promise<RecordedMessage[]> {
  const ends = await endOffsets(brokers, topic);
  if (Object.values(ends).every((end) => end === 0)) return [];
  const from = Object.fromEntries(Object.keys(ends).map((partition) => [Number(partition), 0]));
  return readTopicUntil({ brokers, topic, from, timeoutMs: 120_000, description: `all of ${topic}` }, (messages) => {
    const read = new Map<number, number>();
    for (const message of messages) read.set(message.partition, Math.max(read.get(message.partition) ?? -1, message.offset));
    return Object.entries(ends).every(([partition, end]) => end === 0 || (read.get(Number(partition)) ?? -1) >= end - 1);
  });
}
