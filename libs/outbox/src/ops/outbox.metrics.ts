import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** Outbox health in numbers: a growing `pending` or `oldest age` means the relay is not keeping up. */
@Injectable()
export class OutboxMetrics {
  readonly published: Counter;
  readonly publishFailures: Counter;
  readonly cycleDuration: Histogram;
  readonly deleted: Counter;

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
    this.deleted = new Counter({ name: 'outbox_cleanup_deleted_total', help: 'Published rows deleted by cleanup', registers: [registry] });
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
        const [row] = await dataSource.query(
          'SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS age FROM outbox_messages WHERE published_at IS NULL',
        );
        this.set(row.age);
      },
    });
  }
}
