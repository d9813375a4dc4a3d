import { Inject, Injectable } from '@nestjs/common';
import kafkajs, { Kafka, type Message, type Producer } from 'kafkajs';
import { DEAD_LETTER_HEADER_PREFIX, DeadLetterHeaders, DeadLetterStubHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import { ACKS_ALL, RenewableProducer } from '@libs/kafka';
import type { RawInboxMessage } from '../envelope/inbox.envelope.js';

export interface DeadLetter {
  message: RawInboxMessage;
  consumer: string;
  reason: string;
  error: string;
  attempts: number;
}

/**
 * The value as it goes to the DLQ. A Buffer stays bytes: Nest leaves values that start with a zero
 * byte (schema-registry framing: Avro, Protobuf) undecoded, and turning them into a string would
 * replace every invalid UTF-8 sequence, so the dead letter could no longer be replayed.
 */
function encodeValue(value: unknown): string | Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || Buffer.isBuffer(value)) return value;
  return JSON.stringify(value);
}

/** Errors of a record the topic refuses for its size (`max.message.bytes`): retrying cannot help. */
function isTooLarge(error: unknown): boolean {
  const type = (error as { type?: string }).type;
  return type === 'MESSAGE_TOO_LARGE' || type === 'RECORD_LIST_TOO_LARGE';
}

function byteLength(value: string | Buffer | null | undefined): number {
  return value === null || value === undefined ? 0 : Buffer.byteLength(value);
}

/** Kept on a stub when short enough to be an id, not a payload smuggled in a header. */
const shortText = (value: string | Buffer | undefined) => (value !== undefined && byteLength(value) <= 200 ? value : undefined);

/**
 * Publishes a message that cannot be handled to `<topic>.dlq`, with the original key, value and
 * headers plus the reason, gzip-compressed (a dead letter carries more headers than the original,
 * and must still fit where the original did). Awaited with acks=all on the workspace's idempotent
 * producer (`createIdempotentProducer`): the caller commits the offset only after this resolves, so
 * a message is never both skipped and absent from the DLQ, even when a broker dies meanwhile.
 *
 * A copy the dead-letter topic refuses for its size (its `max.message.bytes`) would otherwise fail
 * every retry and stop the partition for good: it is replaced by a stub with the record's
 * coordinates (topic, partition, offset, message id, reason, original size) and no value, so the
 * partition moves on and the original can still be read from the source topic while it is retained.
 */
@Injectable()
export class DeadLetterPublisher {
  private readonly producer: RenewableProducer;
  private queue: Promise<void> = Promise.resolve();

  constructor(@Inject(Kafka) kafka: Kafka) {
    this.producer = new RenewableProducer(kafka);
  }

  /**
   * One send at a time, in call order: partitions consumed concurrently may dead-letter at the
   * same moment, and concurrent sends on an idempotent producer can lose records (kafkajs#1005).
   */
  publish(letter: DeadLetter): Promise<void> {
    const sent = this.queue.then(() => this.publishNow(letter));
    this.queue = sent.catch(() => undefined);
    return sent;
  }

  private async publishNow(letter: DeadLetter): Promise<void> {
    try {
      const producer = await this.producer.connected();
      await this.copyOrStub(producer, letter);
    } catch (error) {
      // A failed send renews the producer (see RenewableProducer); the caller retries.
      this.producer.retire();
      throw error;
    }
  }

  private async copyOrStub(producer: Producer, letter: DeadLetter): Promise<void> {
    const original: Record<string, string | Buffer> = {};
    for (const [name, value] of Object.entries(letter.message.headers ?? {})) {
      // `dlq-*` headers are the dead-letter publisher's to write: a producer that set them (say a
      // `dlq-original-topic` of its choosing) would otherwise speak through the dead letter.
      if (name.toLowerCase().startsWith(DEAD_LETTER_HEADER_PREFIX)) continue;
      const encoded = encodeValue(value);
      if (encoded !== null) original[name] = encoded;
    }
    const about = {
      [DeadLetterHeaders.reason]: letter.reason,
      [DeadLetterHeaders.attempts]: String(letter.attempts),
      [DeadLetterHeaders.consumer]: letter.consumer,
      [DeadLetterHeaders.originalTopic]: letter.message.topic,
      [DeadLetterHeaders.originalPartition]: String(letter.message.partition),
      [DeadLetterHeaders.originalOffset]: letter.message.offset,
      [DeadLetterHeaders.deadLetteredAt]: new Date().toISOString(),
    };
    const value = encodeValue(letter.message.value);
    const copy: Message = {
      key: letter.message.key,
      value,
      headers: { ...original, ...about, [DeadLetterHeaders.error]: letter.error.slice(0, 4000) },
    };
    try {
      await this.send(producer, letter.message.topic, copy);
    } catch (error) {
      if (!isTooLarge(error)) throw error;
      const size =
        byteLength(letter.message.key) +
        byteLength(value) +
        Object.entries(original).reduce((sum, [name, header]) => sum + Buffer.byteLength(name) + byteLength(header), 0);
      const messageId = shortText(original[Headers.messageId]);
      await this.send(producer, letter.message.topic, {
        key: shortText(letter.message.key ?? undefined) ?? null,
        value: null,
        headers: {
          ...about,
          ...(messageId !== undefined && { [Headers.messageId]: messageId }),
          ...(shortText(original[Headers.messageType]) !== undefined && { [Headers.messageType]: original[Headers.messageType] }),
          [DeadLetterHeaders.error]: `${letter.error.slice(0, 500)} (stub: the record of ${size} bytes is too large for the dead-letter topic)`,
          [DeadLetterStubHeaders.stub]: 'true',
          [DeadLetterStubHeaders.originalSize]: String(size),
        },
      });
    }
  }

  private async send(producer: Producer, topic: string, message: Message): Promise<void> {
    await producer.send({ topic: deadLetterTopic(topic), acks: ACKS_ALL, compression: kafkajs.CompressionTypes.GZIP, messages: [message] });
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}
