import { Inject, Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';

@Injectable()
export class InboxMetrics {
  readonly processed: Counter<'consumer'>;
  readonly duplicates: Counter<'consumer'>;
  readonly deadLettered: Counter<'consumer' | 'reason'>;
  readonly handlerDuration: Histogram<'consumer'>;
  readonly cleanupDeleted: Counter;
  readonly partitionsDropped: Counter;
  readonly batchDuration: Histogram<'consumer'>;
  readonly batchFallbacks: Counter<'consumer'>;
  readonly consumerDeaths: Counter<'consumer'>;

  constructor(@Inject(Registry) registry: Registry) {
    this.processed = new Counter({
      name: 'inbox_processed_total',
      help: 'Messages whose handler committed',
      labelNames: ['consumer'],
      registers: [registry],
    });
    this.duplicates = new Counter({
      name: 'inbox_duplicates_total',
      help: 'Redelivered messages skipped because their id was already in the inbox',
      labelNames: ['consumer'],
      registers: [registry],
    });
    this.deadLettered = new Counter({
      name: 'inbox_dead_lettered_total',
      help: 'Messages sent to the dead-letter topic, by reason',
      labelNames: ['consumer', 'reason'],
      registers: [registry],
    });
    this.handlerDuration = new Histogram({
      name: 'inbox_handler_duration_seconds',
      help: 'Duration of one handler attempt including its transaction',
      labelNames: ['consumer'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    this.batchDuration = new Histogram({
      name: 'inbox_batch_duration_seconds',
      help: 'Duration of one batch transaction (claim, handlers, commit) of several messages, of one partition or of the partitions of one fetch',
      labelNames: ['consumer'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    this.batchFallbacks = new Counter({
      name: 'inbox_batch_fallbacks_total',
      help: 'Batch transactions that failed and were replayed: one message at a time, or each partition of one fetch alone',
      labelNames: ['consumer'],
      registers: [registry],
    });
    this.consumerDeaths = new Counter({
      name: 'inbox_consumer_deaths_total',
      help: 'Consumer processes found dead with records in work (their work mark left behind); see the crash-loop breaker',
      labelNames: ['consumer'],
      registers: [registry],
    });
    this.cleanupDeleted = new Counter({
      name: 'inbox_cleanup_deleted_total',
      help: 'Inbox rows deleted by cleanup after INBOX_RETENTION_MS from the default partition',
      registers: [registry],
    });
    this.partitionsDropped = new Counter({
      name: 'inbox_partitions_dropped_total',
      help: 'Day partitions of inbox_messages dropped whole by cleanup, every row received longer ago than INBOX_RETENTION_MS',
      registers: [registry],
    });
  }
}
