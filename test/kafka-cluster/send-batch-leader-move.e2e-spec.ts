import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Producer, RecordMetadata } from 'kafkajs';
import { ACKS_ALL, createIdempotentProducer, createKafka, ensureTopics, sendBatchAcknowledged } from '@libs/kafka';
import { LocalKafkaCluster, uniqueName, waitFor } from '@tools/local-stack';
import { readWholeTopic } from '../chaos/topic-snapshot.js';

const PARTITIONS = 6;

const partitionsOf = (acks: RecordMetadata[]) => acks.map(({ partition }) => partition).sort();

/**
 * The rolling-restart loss, reproduced on purpose. A producer's metadata still names broker B as
 * the leader of partition Q, which has moved to broker A; the batch holds records for Q and for a
 * partition P that A led all along. kafkajs sends P to A (answered) and Q to B, which answers
 * NOT_LEADER_OR_FOLLOWER; its retry refreshes the metadata, finds Q on A, skips A because A
 * already answered, and resolves: Q's record reported sent, never sent (kafkajs#1303).
 * `sendBatchAcknowledged`, which the outbox relay sends with, must deliver both.
 */
describe('a batch sent while a leader has moved to a broker that already answered (3-node cluster, real brokers)', () => {
  let cluster: LocalKafkaCluster | undefined;
  const producers: Producer[] = [];

  beforeAll(async () => {
    cluster = await LocalKafkaCluster.start({ nodes: 3 });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(producers.map((producer) => producer.disconnect().catch(() => undefined)));
    await cluster?.destroy();
  }, 120_000);

  it('when kafkajs drops the moved partition from its retry, then sendBatchAcknowledged sends it again and every record lands once', async () => {
    const kafka = createKafka({ brokers: cluster!.brokers, clientId: uniqueName('leader-move') });
    const topic = uniqueName('leader-move');
    await ensureTopics(kafka, [topic], PARTITIONS, { replicationFactor: 3, minInsyncReplicas: 2 });
    const newProducer = async () => {
      const producer = createIdempotentProducer(kafka, { retry: { retries: 4, initialRetryTime: 300 } });
      producers.push(producer);
      await producer.connect();
      // Learns today's leaders now and keeps them: kafkajs refreshes metadata after a failure, or after 5 minutes.
      const messages = Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, key: 'prime', value: `prime-${partition}` }));
      await producer.sendBatch({ acks: ACKS_ALL, topicMessages: [{ topic, messages }] });
      return producer;
    };
    const plain = await newProducer();
    const acknowledged = await newProducer();

    const before = await cluster!.leadersOf(topic);
    const b = before.get(0)!;
    await cluster!.stopNode(b);
    const after = await waitFor(
      async () => {
        const now = await cluster!.leadersOf(topic);
        return [...before].every(([partition, leader]) => leader !== b || ((now.get(partition) ?? -1) >= 0 && now.get(partition) !== b))
          ? now
          : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, description: `broker ${b}'s partitions led elsewhere` },
    );
    // Back as a follower: it answers, but not as Q's leader (no preferred-leader election for minutes).
    await cluster!.resume(b);
    await cluster!.waitForBrokers(3);
    const q = [...before].find(([, leader]) => leader === b)![0];
    const a = after.get(q)!;
    const p = [...before].find(([partition, leader]) => leader === a && after.get(partition) === a)?.[0];
    expect({ q, a, p: p !== undefined }).toEqual({ q, a, p: true });

    const batch = (label: string) => [
      { topic, messages: [p!, q].map((partition) => ({ partition, key: label, value: `${label}-${partition}` })) },
    ];
    const plainAcks = await plain.sendBatch({ acks: ACKS_ALL, topicMessages: batch('plain') });
    const checkedAcks = await sendBatchAcknowledged(acknowledged, { acks: ACKS_ALL, topicMessages: batch('checked') });

    // All of the topic, to its end: a record kafkajs did write would be read, wherever it landed.
    const records = await readWholeTopic(cluster!.brokers, topic);
    const values = records.map((record) => record.text ?? '').filter((value) => !value.startsWith('prime'));
    // The precondition: kafkajs alone acknowledged only P and never wrote Q's record.
    expect({ plainAcks: partitionsOf(plainAcks), plainQ: values.includes(`plain-${q}`) }).toEqual({ plainAcks: [p], plainQ: false });
    expect(partitionsOf(checkedAcks)).toEqual([p!, q].sort());
    expect(values.filter((value) => value.startsWith('checked')).sort()).toEqual([`checked-${p}`, `checked-${q}`].sort());
  }, 600_000);
});
