import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { dayPartitionGauges } from '@libs/database';

/** Outbox health in numbers: a growing `pending` or `oldest age` means the relay is not keeping up. */
@Injectable()
export class OutboxMetrics {
  readonly published: Counter;
  readonly publishFailures: Counter;
  readonly cycleDuration: Histogram;
  readonly deleted: Counter;
  readonly partitionsDropped: Counter;

  constructor(@Inject(Registry) registry: Registry, @Inject(DataSource) dataSource: DataSource) {
    this.published = new Counter({ name: 'outbox_published_total', help: 'Outbox rows acknowledged by Kafka', registers: [registry] });
    this.publishFailures = new Counter({
      name: 'outbox_publish_failures_total',
      help: 'Outbox row publish attempts that failed and were scheduled for retry',
      registers: [registry],
    });
    this.cycleDuration = new Histogram({
      name: 'outbox_relay_cycle_duration_seconds',
      help: 'Duration of relay cycles that published or attempted at least one row',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.deleted = new Counter({
      name: 'outbox_cleanup_deleted_total',
      help: 'Published rows deleted by cleanup from the default partition',
      registers: [registry],
    });
    this.partitionsDropped = new Counter({
      name: 'outbox_partitions_dropped_total',
      help: 'Day partitions of outbox_messages dropped whole by cleanup, every row past retention and none pending',
      registers: [registry],
    });
    dayPartitionGauges(registry, dataSource, 'outbox', 'outbox_messages');
    // Read at scrape time from the table itself: the truth survives restarts and covers every replica.
    new Gauge({
      name: 'outbox_pending_messages',
      help: 'Outbox rows not yet published',
      registers: [registry],
      async collect() {
        const [row] = await dataSource.query('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
        this.set(row.n);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest unpublished outbox row (0 when none)',
      registers: [registry],
      async collect() {
        // The first row of the partial pending index: one index entry per partition read, whatever the table holds.
        const [row] = await dataSource.query(
          'SELECT COALESCE(EXTRACT(EPOCH FROM now() - (SELECT created_at FROM outbox_messages WHERE published_at IS NULL ORDER BY seq LIMIT 1)), 0)::float AS age',
        );
        this.set(row.age);
      },
    });
  }
}
