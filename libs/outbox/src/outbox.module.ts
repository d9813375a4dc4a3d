import { messageSigning } from '@libs/envelope';
import { type DynamicModule, Module } from '@nestjs/common';
import { retentionJob } from '@libs/database';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox.config.js';
import { outboxRetention } from './retention/outbox.retention.js';
import { OutboxListener } from './relay/outbox.listener.js';
import { OutboxMetrics } from './ops/outbox.metrics.js';
import { OutboxPublisher } from './transport/outbox.publisher.js';
import { OutboxRelay } from './relay/outbox.relay.js';
import { OutboxRelayScheduler } from './relay/outbox-relay.scheduler.js';
import { OutboxWriter } from './write/outbox.writer.js';

/**
 * The transactional outbox. `forRoot` (once, in the app module) runs the relay that publishes to
 * Kafka, its wake-up listener and the cleanup; `forFeature` (in each feature module whose use cases
 * write events) provides {@link OutboxWriter}. Not global: a feature module shows that it writes to
 * the outbox by importing it. The writer keeps no state (it writes through the ambient transaction),
 * so each feature's instance is as good as one shared.
 * Needs `DatabaseModule`, `KafkaModule`, `MetricsModule` and `ScheduleModule.forRoot()` in the app.
 */
@Module({})
export class OutboxModule {
  static forRoot(config: OutboxConfig): DynamicModule {
    // Bad signing keys fail the start-up, naming the variable, not the first message.
    messageSigning(config);
    return {
      module: OutboxModule,
      providers: [
        { provide: OUTBOX_CONFIG, useValue: config },
        OutboxPublisher,
        OutboxMetrics,
        OutboxRelay,
        OutboxListener,
        OutboxRelayScheduler,
        retentionJob({ inject: [OUTBOX_CONFIG, OutboxMetrics], policy: outboxRetention }),
      ],
      exports: [OutboxRelay],
    };
  }

  static forFeature(): DynamicModule {
    return { module: OutboxModule, providers: [OutboxWriter], exports: [OutboxWriter] };
  }
}
