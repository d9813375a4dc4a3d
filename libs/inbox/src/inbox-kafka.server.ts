import { type CustomTransportStrategy } from '@nestjs/microservices';
import { ServerKafka } from '@nestjs/microservices';
import type { Consumer, ConsumerRunConfig, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { restartAfterCrash } from '@app/kafka';
import type { KafkaOptions } from '@nestjs/microservices';
import type { InboxBatchConsumer } from './inbox-batch.consumer.js';
import { type RawInboxMessage, rawInboxMessage } from './inbox-envelope.js';

/**
 * Nest's Kafka transport, consuming a batch of records per partition instead of one message at a
 * time. Why a subclass: Nest's `ServerKafka` always passes kafkajs `eachMessage`, one record per
 * call, and the inbox wants several records of one partition in one transaction, with their
 * offsets resolved only after it committed (`eachBatch`, `eachBatchAutoResolve: false`).
 * `@EventPattern` handlers, interceptors and filters stay the application's face: every record
 * still runs through Nest's handler pipeline.
 *
 * Partitions are consumed concurrently (`run.partitionsConsumedConcurrently`); kafkajs hands one
 * partition's records to one call at a time, so order within a partition holds.
 */
export class InboxKafkaServer extends ServerKafka implements CustomTransportStrategy {
  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly batches: InboxBatchConsumer,
  ) {
    super(options);
  }

  private closing = false;

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = [...this.getHandlers().keys()];
    if (topics.length > 0) await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics });
    const runConfig: ConsumerRunConfig = {
      ...(this.options.run ?? {}),
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    };
    // A crash kafkajs does not restart (a leader or coordinator change can cause one) would
    // otherwise leave the app running without a consumer.
    restartAfterCrash(consumer, runConfig, { isClosing: () => this.closing, log: (line) => this.logger.error(line) });
    await consumer.run(runConfig);
  }

  override async close(): Promise<void> {
    this.closing = true;
    await super.close();
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, heartbeat, resolveOffset, isRunning, isStale } = payload;
    const { topic, partition } = batch;
    const sources = new Map<RawInboxMessage, KafkaMessage>();
    const records = batch.messages.map((message) => {
      // The same decoding Nest applies before a handler sees the message.
      const parsed = this.parser!.parse<KafkaMessage & { value: unknown; headers: Record<string, unknown> }>(message);
      const record = rawInboxMessage(topic, partition, parsed);
      sources.set(record, message);
      return record;
    });
    await this.batches.consume({
      topic,
      partition,
      records,
      invoke: (record) => this.handleMessage({ topic, partition, message: sources.get(record)!, heartbeat, pause: payload.pause }),
      resolve: (record) => resolveOffset(record.offset),
      heartbeat,
      isActive: () => isRunning() && !isStale(),
    });
  }
}
