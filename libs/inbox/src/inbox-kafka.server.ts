import { type CustomTransportStrategy, type KafkaOptions, ServerKafka } from '@nestjs/microservices';
import type { Consumer, ConsumerRunConfig, EachBatchPayload } from 'kafkajs';
import { restartAfterCrash } from '@libs/kafka';
import type { InboxConsumer } from './inbox.consumer.js';
import { inboxBatchOf } from './inbox-kafka-batch.js';
import type { InboxRoutes } from './inbox-routes.js';
import { PacedOffsetCommits } from './paced-offset-commits.js';
import { SameFetchBatches } from './same-fetch-batches.js';

/** How often the consumer goes back to Kafka: fetches (`lingerMs`) and offset commits (`commitIntervalMs`). */
export interface InboxKafkaPacing {
  readonly lingerMs: number;
  readonly commitIntervalMs: number;
}

/**
 * Nest's Kafka transport (connection, group membership, shutdown) consuming the app's declared
 * topics through the inbox, a batch of records per partition at a time. Why a subclass: Nest's
 * `ServerKafka` subscribes to `@EventPattern` handlers and passes kafkajs `eachMessage`, one record
 * per call; the inbox reads what to subscribe to from the app's consumes declaration and wants
 * `eachBatch` with `eachBatchAutoResolve: false`, so offsets are resolved only after the commit.
 *
 * Partitions are consumed concurrently (`run.partitionsConsumedConcurrently`); kafkajs hands one
 * partition's records to one call at a time, so order within a partition holds. The batches of one
 * fetch share one inbox transaction ({@link SameFetchBatches}), as far as `INBOX_BATCH_SIZE` has room.
 *
 * Batching that adapts (`lingerMs`, `INBOX_LINGER_MS`): kafkajs fetches again only once every batch
 * of the last fetch has been handled, so a batch handled in less than `lingerMs` returns after
 * `lingerMs`: the next fetch then carries what arrived meanwhile, in one inbox transaction and one
 * offset commit, instead of a fetch, a transaction and a commit per record at a moderate rate.
 * The wait comes after the handling: a record after a quiet spell is handled at once, and a batch
 * that took longer than `lingerMs` is followed by a fetch at once. Offsets are committed at most
 * once per `commitIntervalMs` while busy, at once after a quiet spell, and never while the batches
 * wait ({@link PacedOffsetCommits}).
 */
export class InboxKafkaServer extends ServerKafka implements CustomTransportStrategy {
  private closing = false;
  private readonly lingerMs: number;
  private readonly commits: PacedOffsetCommits;
  private readonly sameFetch: SameFetchBatches;

  constructor(
    options: Required<KafkaOptions>['options'],
    inbox: InboxConsumer,
    private readonly routes: InboxRoutes,
    pacing: InboxKafkaPacing = { lingerMs: 0, commitIntervalMs: 0 },
  ) {
    super(options);
    this.lingerMs = pacing.lingerMs;
    this.sameFetch = new SameFetchBatches(inbox);
    this.commits = new PacedOffsetCommits(pacing.commitIntervalMs, (line) => this.logger.warn(line));
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = this.routes.topics();
    if (topics.length > 0) await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics });
    const runConfig: ConsumerRunConfig = {
      ...(this.options.run ?? {}),
      ...this.commits.runOptions(),
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    };
    // An offset commit runs beside the fetch loop; one that failed for a generation the group has left must not make kafkajs rejoin again.
    consumer.on(consumer.events.GROUP_JOIN, () => this.commits.rejoined());
    // A crash kafkajs does not restart (a leader or coordinator change can cause one) would
    // otherwise leave the app running without a consumer.
    restartAfterCrash(consumer, runConfig, { isClosing: () => this.closing, log: (line) => this.logger.error(line) });
    await consumer.run(runConfig);
  }

  override async close(): Promise<void> {
    this.closing = true;
    // What was handled goes to Kafka before the consumer leaves its group; a failure only means redeliveries the inbox skips.
    await this.commits.flush().catch((error: Error) => this.logger.warn(`last offset commit failed (${error.message})`));
    await super.close();
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const started = performance.now();
    await this.sameFetch.consume(inboxBatchOf(payload, this.parser!), this.routes.routeOf(payload.batch.topic));
    await this.commits.afterBatch(payload);
    const left = started + this.lingerMs - performance.now();
    if (left > 0 && !this.closing && payload.isRunning()) await new Promise((resolve) => setTimeout(resolve, left));
  }
}
