import { type DynamicModule, Module } from '@nestjs/common';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox-options.js';
import { OutboxCleanup } from './outbox.cleanup.js';
import { OutboxCleanupScheduler } from './outbox-cleanup.scheduler.js';
import { OutboxListener } from './outbox.listener.js';
import { OutboxMetrics } from './outbox.metrics.js';
import { OutboxPublisher } from './outbox.publisher.js';
import { OutboxRelay } from './outbox.relay.js';
import { OutboxRelayScheduler } from './outbox-relay.scheduler.js';
import { OutboxWriter } from './outbox.writer.js';

/**
 * The transactional outbox: `OutboxWriter` for use cases, and the relay that publishes to Kafka.
 * Needs `DatabaseModule`, `KafkaModule`, `MetricsModule` and `ScheduleModule.forRoot()` in the app.
 */
@Module({})
export class OutboxModule {
  static forRoot(config: OutboxConfig): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [
        { provide: OUTBOX_CONFIG, useValue: config },
        OutboxWriter,
        OutboxPublisher,
        OutboxMetrics,
        OutboxRelay,
        OutboxListener,
        OutboxCleanup,
        OutboxRelayScheduler,
        OutboxCleanupScheduler,
      ],
      exports: [OutboxWriter, OutboxRelay, OutboxCleanup],
    };
  }
}
