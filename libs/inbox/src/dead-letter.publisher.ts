import { Inject, Injectable } from '@nestjs/common';
import kafkajs, { Kafka, type Message, type Producer } from 'kafkajs';
import { DeadLetterHeaders, DeadLetterStubHeaders, deadLetterTopic, Headers } from '@app/envelope';
import type { RawInboxMessage } from './inbox-envelope.js';

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
 * and must still fit where the original did). Awaited with acks -1: the caller commits the offset
 * only after this resolves, so a message is never both skipped and absent from the DLQ.
 *
 * A copy the dead-letter topic refuses for its size (its `max.message.bytes`) would otherwise fail
 * every retry and stop the partition for good: it is replaced by a stub with the record's
 * coordinates (topic, partition, offset, message id, reason, original size) and no value, so the
 * partition moves on and the original can still be read from the source topic while it is retained.
 */
@Injectable()
export class DeadLetterPublisher {
  private producer: Producer | undefined;
  private connecting: Promise<void> | undefined;

  constructor(@Inject(Kafka) private readonly kafka: Kafka) {}

  async publish(letter: DeadLetter): Promise<void> {
    const producer = await this.connected();
    const original: Record<string, string | Buffer> = {};
    for (const [name, value] of Object.entries(letter.message.headers ?? {})) {
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
    await producer.send({ topic: deadLetterTopic(topic), acks: -1, compression: kafkajs.CompressionTypes.GZIP, messages: [message] });
  }

  private async connected(): Promise<Producer> {
    this.producer ??= this.kafka.producer({ allowAutoTopicCreation: false });
    this.connecting ??= this.producer.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    await this.connecting;
    return this.producer;
  }

  async close(): Promise<void> {
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = undefined;
    this.connecting = undefined;
  }
}
