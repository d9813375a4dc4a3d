import { type CustomTransportStrategy, type KafkaOptions, ServerKafka } from '@nestjs/microservices';
import type { Consumer, ConsumerRunConfig, EachBatchPayload } from 'kafkajs';
import { restartAfterCrash } from '@libs/kafka';
import type { LayeredInbox } from '../layers/inbox.layers.js';
import type { FetchLinger } from '../layers/fetch-linger.layer.js';
import type { OffsetCommitsPerInterval } from '../layers/offset-commits-per-interval.layer.js';
import type { InboxRoutes } from '../routing/inbox-routes.registry.js';
import { inboxBatchOf } from './inbox-kafka.batch.js';

/** The transport's speed-up layers, each absent when switched off (see layers/inbox.layers.ts). */
export interface InboxKafkaLayers {
  readonly linger?: FetchLinger;
  readonly commits?: OffsetCommitsPerInterval;
}

/**
 * Nest's Kafka transport (connection, group membership, shutdown) consuming the app's declared
 * topics through the inbox, a batch of records per partition at a time. Why a subclass: Nest's
 * `ServerKafka` subscribes to `@EventPattern` handlers and passes kafkajs `eachMessage`, one record
 * per call; the inbox reads what to subscribe to from the app's consumes declaration and wants
 * `eachBatch` with `eachBatchAutoResolve: false`, so an offset is resolved only after its record's
 * transaction committed, and kafkajs commits only resolved offsets.
 *
 * Partitions are consumed concurrently (`run.partitionsConsumedConcurrently`); kafkajs hands one
 * partition's records to one call at a time, so order within a partition holds.
 */
export class InboxKafkaServer extends ServerKafka implements CustomTransportStrategy {
  private closing = false;

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly inbox: Pick<LayeredInbox, 'deliver'>,
    private readonly routes: InboxRoutes,
    private readonly layers: InboxKafkaLayers = {},
  ) {
    super(options);
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = this.routes.topics();
    if (topics.length > 0) await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics });
    const { commits } = this.layers;
    const runConfig: ConsumerRunConfig = {
      ...(this.options.run ?? {}),
      ...commits?.runOptions(),
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    };
    // An offset commit runs beside the fetch loop; one that failed for a generation the group has left must not make kafkajs rejoin again.
    if (commits) consumer.on(consumer.events.GROUP_JOIN, () => commits.rejoined());
    // A crash kafkajs does not restart (a leader or coordinator change can cause one) would
    // otherwise leave the app running without a consumer.
    restartAfterCrash(consumer, runConfig, { isClosing: () => this.closing, log: (line) => this.logger.error(line) });
    await consumer.run(runConfig);
  }

  override async close(): Promise<void> {
    this.closing = true;
    // What was handled goes to Kafka before the consumer leaves its group; a failure only means redeliveries the inbox skips.
    await this.layers.commits?.flush().catch((error: Error) => this.logger.warn(`last offset commit failed (${error.message})`));
    await super.close();
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const started = performance.now();
    await this.inbox.deliver(inboxBatchOf(payload, this.parser!), this.routes.routeOf(payload.batch.topic));
    await this.layers.commits?.afterBatch(payload);
    await this.layers.linger?.rest(started, () => !this.closing && payload.isRunning());
  }
}
