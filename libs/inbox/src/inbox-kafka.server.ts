import { type CustomTransportStrategy, type KafkaOptions, ServerKafka } from '@nestjs/microservices';
import type { Consumer, ConsumerRunConfig, EachBatchPayload } from 'kafkajs';
import { restartAfterCrash } from '@app/kafka';
import type { InboxConsumer } from './inbox.consumer.js';
import { inboxBatchOf } from './inbox-kafka-batch.js';
import type { InboxRoutes } from './inbox-routes.js';

/**
 * Nest's Kafka transport (connection, group membership, shutdown) consuming the app's declared
 * topics through the inbox, a batch of records per partition at a time. Why a subclass: Nest's
 * `ServerKafka` subscribes to `@EventPattern` handlers and passes kafkajs `eachMessage`, one record
 * per call; the inbox reads what to subscribe to from the app's consumes declaration and wants
 * `eachBatch` with `eachBatchAutoResolve: false`, so offsets are resolved only after the commit.
 *
 * Partitions are consumed concurrently (`run.partitionsConsumedConcurrently`); kafkajs hands one
 * partition's records to one call at a time, so order within a partition holds.
 */
export class InboxKafkaServer extends ServerKafka implements CustomTransportStrategy {
  private closing = false;

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly inbox: InboxConsumer,
    private readonly routes: InboxRoutes,
  ) {
    super(options);
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = this.routes.topics();
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
    await this.inbox.consume(inboxBatchOf(payload, this.parser!), this.routes.routeOf(payload.batch.topic));
  }
}
