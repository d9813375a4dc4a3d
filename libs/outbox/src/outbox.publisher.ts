import { Inject, Injectable, Logger } from '@nestjs/common';
import { Kafka, type Message, type Producer } from 'kafkajs';
import { isBrokerUnavailable } from './broker-unavailable.js';
import type { OutboxMessage } from './outbox-message.entity.js';

export interface PublishOutcome {
  published: OutboxMessage[];
  failed: { row: OutboxMessage; error: Error }[];
}

function toKafkaMessage(row: OutboxMessage): Message {
  return { key: row.key, value: JSON.stringify(row.payload), headers: row.headers };
}

function groupByTopic(rows: OutboxMessage[]) {
  const byTopic = new Map<string, Message[]>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push(toKafkaMessage(row));
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/**
 * Sends outbox rows with one idempotent producer, one awaited request at a time (see
 * `createIdempotentProducer` for why), and reports which rows the broker acknowledged.
 */
@Injectable()
export class OutboxPublisher {
  private readonly logger = new Logger(OutboxPublisher.name);
  private producer: Producer | undefined;
  private connecting: Promise<void> | undefined;

  constructor(@Inject(Kafka) private readonly kafka: Kafka) {}

  private async connected(): Promise<Producer> {
    if (!this.producer) {
      this.producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // Bounded: a relay waiting on a dead broker holds its cycle; backoff, not retries, covers outages.
        retry: { retries: 4, initialRetryTime: 100, maxRetryTime: 2000 },
      });
      this.producer.on(this.producer.events.DISCONNECT, () => {
        this.connecting = undefined;
      });
    }
    this.connecting ??= this.producer.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    await this.connecting;
    return this.producer;
  }

  private async send(rows: OutboxMessage[]): Promise<void> {
    const producer = await this.connected();
    try {
      await producer.sendBatch({ acks: -1, topicMessages: groupByTopic(rows) });
    } catch (error) {
      // A failed send retires the producer. kafkajs rolls its idempotent sequence numbers back on
      // any failed request, even one the broker did append (a timeout, a dropped connection). The
      // next sendBatch would reuse them for the next, possibly different, rows: the broker then
      // acknowledges it as a duplicate WITHOUT writing it (rows marked published, never on the
      // topic), or rejects every later send with OUT_OF_ORDER_SEQUENCE_NUMBER. A new producer id
      // starts clean; the cost is a possible duplicate, which consumers dedupe by message-id.
      await this.close();
      throw error;
    }
  }

  /**
   * One `sendBatch` for the whole batch. When it fails for a reason other than an unreachable
   * broker, rows are retried one by one to isolate the bad one: an aggregate stops at its first
   * failure (later rows of it stay pending, preserving order), other aggregates go on.
   */
  async publish(rows: OutboxMessage[]): Promise<PublishOutcome> {
    try {
      await this.send(rows);
      return { published: rows, failed: [] };
    } catch (error) {
      if (rows.length === 1 || isBrokerUnavailable(error)) {
        return { published: [], failed: rows.map((row) => ({ row, error: error as Error })) };
      }
      this.logger.warn(`Batch of ${rows.length} failed (${(error as Error).message}); isolating rows`);
    }
    const outcome: PublishOutcome = { published: [], failed: [] };
    const blocked = new Set<string>();
    for (const row of rows) {
      const aggregate = `${row.aggregateType}/${row.aggregateId}`;
      if (blocked.has(aggregate)) continue;
      try {
        await this.send([row]);
        outcome.published.push(row);
      } catch (error) {
        outcome.failed.push({ row, error: error as Error });
        blocked.add(aggregate);
      }
    }
    return outcome;
  }

  async close(): Promise<void> {
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = undefined;
    this.connecting = undefined;
  }
}
