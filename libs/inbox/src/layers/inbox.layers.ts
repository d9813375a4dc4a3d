import { Inject, Injectable } from '@nestjs/common';
import type { SpeedUpLayer } from '@libs/config';
import { TransactionContext } from '@libs/database';
import type { DeliverBatch, InboxBatch, InboxOutcome } from '../core/inbox.batch.js';
import { InboxConsumer } from '../core/inbox.consumer.js';
import { InboxTransaction } from '../core/inbox.transaction.js';
import { CrashLoopBreaker } from '../crash-loop/crash-loop.breaker.js';
import { InboxWorkMarks } from '../crash-loop/inbox-work.marks.js';
import { DeadLetterPublisher } from '../dead-letter/dead-letter.publisher.js';
import { INBOX_CONFIG, type InboxConfig } from '../inbox.config.js';
import type { InboxRoute } from '../routing/inbox.route.js';
import { InboxMetrics } from '../telemetry/inbox.metrics.js';
import { FetchInOneTransaction, fetchInOneTransaction } from './fetch-in-one-transaction.layer.js';
import { fetchLinger } from './fetch-linger.layer.js';
import { offsetCommitsPerInterval } from './offset-commits-per-interval.layer.js';
import { PartitionInOneTransaction, partitionInOneTransaction } from './partition-in-one-transaction.layer.js';

/**
 * The inbox's speed-ups, each beside the core and switched by its own variable (default on). With
 * every one of them off the inbox is its core alone ({@link InboxConsumer}): correct, and slower.
 * The first two wrap the core here; the last two pace the Kafka transport (transport/inbox-kafka.connect.ts).
 */
export const inboxLayers: readonly SpeedUpLayer[] = [
  partitionInOneTransaction,
  fetchInOneTransaction,
  offsetCommitsPerInterval,
  fetchLinger,
];

/**
 * The core wrapped in the layers the configuration switches on, innermost first: a partition's
 * records in one transaction, then the partitions of one fetch in one transaction. What the Kafka
 * transport hands each partition's batch to.
 */
@Injectable()
export class LayeredInbox {
  private readonly layered: DeliverBatch;

  constructor(
    @Inject(TransactionContext) tx: TransactionContext,
    @Inject(DeadLetterPublisher) deadLetters: DeadLetterPublisher,
    @Inject(InboxMetrics) metrics: InboxMetrics,
    @Inject(INBOX_CONFIG) config: InboxConfig,
  ) {
    const transaction = new InboxTransaction(tx, deadLetters, metrics, config);
    const core = new InboxConsumer(transaction, config);
    let deliver: DeliverBatch = (batch, route) => core.consume(batch, route);
    if (config.INBOX_PARTITION_IN_ONE_TRANSACTION_ENABLED) {
      const layer = new PartitionInOneTransaction(core, transaction, config.INBOX_BATCH_SIZE);
      deliver = (batch, route) => layer.inChunks(batch, route);
    }
    if (config.INBOX_FETCH_IN_ONE_TRANSACTION_ENABLED) {
      const layer = new FetchInOneTransaction(core, transaction, deliver, config.INBOX_BATCH_SIZE);
      deliver = (batch, route) => layer.gather(batch, route);
    }
    // Not a speed-up and not switchable: the crash-loop breaker marks each batch in work around all of the above.
    const breaker = new CrashLoopBreaker(new InboxWorkMarks(tx.dataSource), deadLetters, metrics, config.INBOX_CRASH_LOOP_DEATHS);
    const layered = deliver;
    this.layered = (batch, route) => breaker.deliver(batch, route, layered);
  }

  /** Hands one partition's records to the inbox through the layers switched on; the outcome of each record handled, in order. */
  deliver(batch: InboxBatch, route: InboxRoute): Promise<InboxOutcome[]> {
    return this.layered(batch, route);
  }
}
