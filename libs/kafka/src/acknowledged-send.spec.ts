import { describe, expect, it } from '@jest/globals';
import type { Message, PartitionMetadata, RecordMetadata } from 'kafkajs';
import { stickyPartitioner, unacknowledged } from './acknowledged-send.js';

const metadata = (count: number): PartitionMetadata[] =>
  Array.from({ length: count }, (_, partitionId) => ({
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
    offlineReplicas: [],
    partitionErrorCode: 0,
  }));
const ack = (topicName: string, partition: number): RecordMetadata => ({ topicName, partition, errorCode: 0 });

describe('stickyPartitioner', () => {
  it('when a keyed message is partitioned, then it goes where the default partitioner (murmur2) puts it', () => {
    const partition = stickyPartitioner();
    // Java's partitioner puts key "a" in partition 1 of 3 (murmur2, positive modulo).
    expect(partition({ topic: 't', partitionMetadata: metadata(3), message: { key: 'a', value: 'x' } })).toBe(1);
  });

  it('when the same keyless message is partitioned again (a retry), then it keeps its first partition', () => {
    const partition = stickyPartitioner();
    const messages: Message[] = Array.from({ length: 4 }, () => ({ value: 'x' }));
    const first = messages.map((message) => partition({ topic: 't', partitionMetadata: metadata(3), message }));
    const again = messages.map((message) => partition({ topic: 't', partitionMetadata: metadata(3), message }));
    expect(again).toEqual(first);
    // Round robin: the four messages did not all land in one partition, so "the same" is not trivial.
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('when an explicit partition is given, then it is used', () => {
    expect(stickyPartitioner()({ topic: 't', partitionMetadata: metadata(3), message: { partition: 2, value: 'x' } })).toBe(2);
  });
});

describe('unacknowledged', () => {
  const partitioned = (topic: string, partitions: number[]) => {
    const partition = stickyPartitioner();
    const messages = partitions.map((one) => ({ partition: one, value: `${topic}-${one}` }));
    for (const message of messages) partition({ topic, partitionMetadata: metadata(6), message });
    return { topic, messages };
  };

  it('when every partition is acknowledged, then nothing is left', () => {
    const batch = [partitioned('a', [0, 1, 1]), partitioned('b', [2])];
    expect(unacknowledged(batch, [ack('a', 0), ack('a', 1), ack('b', 2)])).toEqual([]);
  });

  it('when a partition is missing from the acknowledgements, then exactly its messages are left, by topic', () => {
    const a = partitioned('a', [0, 1, 1]);
    const b = partitioned('b', [1]);
    expect(unacknowledged([a, b], [ack('a', 0), ack('b', 1)])).toEqual([{ topic: 'a', messages: [a.messages[1], a.messages[2]] }]);
    // Partition 1 of topic a is not acknowledged by an ack for partition 1 of topic b.
    expect(unacknowledged([a, b], [ack('a', 0), ack('b', 1)])[0].messages.map((message) => message.value)).toEqual(['a-1', 'a-1']);
  });

  it('when a message was never partitioned by stickyPartitioner, then it throws instead of passing the batch', () => {
    expect(() => unacknowledged([{ topic: 'a', messages: [{ value: 'x' }] }], [ack('a', 0)])).toThrow(/stickyPartitioner/);
  });
});
