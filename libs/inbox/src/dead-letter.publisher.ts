import { Inject, Injectable } from '@nestjs/common';
import { Kafka, type Producer } from 'kafkajs';
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
 * headers plus the reason. Awaited with acks -1: the caller commits the offset only after this
 * resolves, so a message is never both skipped and absent from the DLQ.
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
    await producer.send({
      topic: deadLetterTopic(letter.message.topic),
      acks: -1,
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
