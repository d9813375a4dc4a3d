import { Inject, Injectable } from '@nestjs/common';
import { Kafka, type Producer } from 'kafkajs';
import { ACKS_ALL, createIdempotentProducer } from '@app/kafka';
import { DeadLetterHeaders, deadLetterTopic } from '@app/envelope';
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

/**
 * Publishes a message that cannot be handled to `<topic>.dlq`, with the original key, value and
 * headers plus the reason. Awaited with acks=all on the workspace's idempotent producer
 * (`createIdempotentProducer`): the caller commits the offset only after this resolves, so a
 * message is never both skipped and absent from the DLQ, even when a broker dies meanwhile.
 */
@Injectable()
export class DeadLetterPublisher {
  private producer: Producer | undefined;
  private connecting: Promise<void> | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(@Inject(Kafka) private readonly kafka: Kafka) {}

  /**
   * One send at a time, in call order: partitions consumed concurrently may dead-letter at the
   * same moment, and concurrent sends on an idempotent producer can lose records (kafkajs#1005).
   */
  publish(letter: DeadLetter): Promise<void> {
    const sent = this.queue.then(() => this.send(letter));
    this.queue = sent.catch(() => undefined);
    return sent;
  }

  private async send(letter: DeadLetter): Promise<void> {
    const original: Record<string, string | Buffer> = {};
    for (const [name, value] of Object.entries(letter.message.headers ?? {})) {
      const encoded = encodeValue(value);
      if (encoded !== null) original[name] = encoded;
    }
    try {
      const producer = await this.connected();
      await producer.send({
        topic: deadLetterTopic(letter.message.topic),
        acks: ACKS_ALL,
        messages: [
          {
            key: letter.message.key,
            value: encodeValue(letter.message.value),
            headers: {
              ...original,
              [DeadLetterHeaders.reason]: letter.reason,
              [DeadLetterHeaders.error]: letter.error.slice(0, 4000),
              [DeadLetterHeaders.attempts]: String(letter.attempts),
              [DeadLetterHeaders.consumer]: letter.consumer,
              [DeadLetterHeaders.originalTopic]: letter.message.topic,
              [DeadLetterHeaders.originalPartition]: String(letter.message.partition),
              [DeadLetterHeaders.originalOffset]: letter.message.offset,
              [DeadLetterHeaders.deadLetteredAt]: new Date().toISOString(),
            },
          },
        ],
      });
    } catch (error) {
      // A failed send rolls kafkajs's idempotent sequence numbers back even when the broker kept
      // the record (kafkajs#598): the next send on this producer could be acknowledged as a
      // duplicate without being written. A new producer starts clean; the caller retries.
      this.retire();
      throw error;
    }
  }

  private async connected(): Promise<Producer> {
    this.producer ??= createIdempotentProducer(this.kafka);
    this.connecting ??= this.producer.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    await this.connecting;
    return this.producer;
  }

  private retire(): void {
    const producer = this.producer;
    this.producer = undefined;
    this.connecting = undefined;
    void producer?.disconnect().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = undefined;
    this.connecting = undefined;
  }
}
