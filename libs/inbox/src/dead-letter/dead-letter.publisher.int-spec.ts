import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DeadLetterHeaders, DeadLetterStubHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import { createKafka } from '@libs/kafka';
import { testInfrastructure } from '@test/fixtures';
import { type RecordedMessage, TopicRecorder, uniqueName } from '@tools/test-support';
import { DeadLetterPublisher } from './dead-letter.publisher.js';
import type { RawInboxMessage } from '../envelope/inbox.envelope.js';

/**
 * The dead-letter publisher against a real dead-letter topic with a small `max.message.bytes`
 * (8 KiB): a large but compressible record fits once gzipped; one that does not fit even then is
 * replaced by a stub with its coordinates, instead of failing (which would stop its partition).
 */
const { brokers } = testInfrastructure();
const topic = uniqueName('test.dead-letter-size').replace(/_/g, '-');
const dlqTopic = deadLetterTopic(topic);
const MAX_MESSAGE_BYTES = 8192;

describe('DeadLetterPublisher (real topic with max.message.bytes 8 KiB)', () => {
  const kafka = createKafka({ brokers, clientId: uniqueName('test-dead-letter-size') });
  let publisher: DeadLetterPublisher;
  let recorder: TopicRecorder;
  let offset = 0;

  beforeAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic: dlqTopic, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: String(MAX_MESSAGE_BYTES) }] }],
    });
    await admin.disconnect();
    recorder = await TopicRecorder.start({ brokers, topic: dlqTopic, from: {} });
    publisher = new DeadLetterPublisher(kafka);
  });

  afterAll(async () => {
    await recorder?.stop();
    await publisher?.close();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [dlqTopic] }).catch(() => undefined);
    await admin.disconnect();
  });

  function record(value: string): RawInboxMessage {
    offset += 1;
    return {
      topic,
      partition: 2,
      offset: String(offset),
      key: `key-${offset}`,
      value,
      headers: { [Headers.messageId]: randomUUID(), [Headers.messageType]: 'ThingHappened' },
    };
  }

  async function deadLetterOf(raw: RawInboxMessage): Promise<RecordedMessage> {
    const all = await recorder.waitUntil((messages) => messages.some((m) => m.headers[DeadLetterHeaders.originalOffset] === raw.offset), {
      timeoutMs: 20_000,
      description: `the dead letter of offset ${raw.offset}`,
    });
    return all.find((m) => m.headers[DeadLetterHeaders.originalOffset] === raw.offset)!;
  }

  it('when a record is larger than the topic allows but compresses, then the full copy is dead-lettered (gzip)', async () => {
    const raw = record(JSON.stringify({ note: 'a'.repeat(50_000) }));
    await publisher.publish({ message: raw, consumer: 'test', reason: 'SCHEMA_VIOLATION', error: 'bad', attempts: 0 });
    const letter = await deadLetterOf(raw);
    expect(letter.text).toBe(raw.value);
    expect(letter.headers[DeadLetterStubHeaders.stub]).toBeUndefined();
  });

  it('when a record is too large for the dead-letter topic even compressed, then a stub with its coordinates takes its place and the publish succeeds', async () => {
    const raw = record(randomBytes(20_000).toString('base64'));
    await publisher.publish({ message: raw, consumer: 'test', reason: 'SCHEMA_VIOLATION', error: 'payload.note is too long', attempts: 0 });
    const letter = await deadLetterOf(raw);
    expect(letter.text).toBeNull();
    expect(letter.key).toBe(raw.key);
    expect(letter.headers).toMatchObject({
      [DeadLetterStubHeaders.stub]: 'true',
      [DeadLetterHeaders.reason]: 'SCHEMA_VIOLATION',
      [DeadLetterHeaders.originalTopic]: topic,
      [DeadLetterHeaders.originalPartition]: '2',
      [DeadLetterHeaders.originalOffset]: raw.offset,
      [Headers.messageId]: raw.headers[Headers.messageId],
    });
    expect(Number(letter.headers[DeadLetterStubHeaders.originalSize])).toBeGreaterThan(20_000);
    expect(letter.headers[DeadLetterHeaders.error]).toContain('payload.note is too long');
  });

  it("when the record arrives with dlq-* headers of its producer, then the dead letter carries only the publisher's own", async () => {
    const raw = record('not json');
    raw.headers = {
      ...raw.headers,
      [DeadLetterHeaders.originalTopic]: 'orders.order.v1',
      [DeadLetterHeaders.reason]: 'FORGED',
      // Not one the publisher writes on a full copy: left in, ops would take the letter for a stub.
      [DeadLetterStubHeaders.stub]: 'true',
      'DLQ-Consumer': 'someone-else',
    };
    await publisher.publish({ message: raw, consumer: 'test', reason: 'NOT_JSON', error: 'not JSON', attempts: 0 });
    const letter = await deadLetterOf(raw);
    expect(letter.headers).toMatchObject({
      [DeadLetterHeaders.originalTopic]: topic,
      [DeadLetterHeaders.reason]: 'NOT_JSON',
      [DeadLetterHeaders.consumer]: 'test',
      [Headers.messageId]: raw.headers[Headers.messageId],
    });
    expect(letter.headers[DeadLetterStubHeaders.stub]).toBeUndefined();
    expect(Object.keys(letter.headers).filter((name) => name.toLowerCase() === 'dlq-consumer')).toEqual([DeadLetterHeaders.consumer]);
  });
});
