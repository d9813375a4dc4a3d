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
import { OUTBOX_EVENT_VALIDATOR, type OutboxEventValidator } from './outbox-event-validator.js';

/** What the app tells the outbox beyond its configuration. */
export interface OutboxModuleOptions {
  /**
   * Checks every event before {@link OutboxWriter.add} stores it; required, so no app can forget
   * it. Pass the contract check its consumers use (for example `messageProblems` from the app's
   * contracts). Cost: one payload check per event, inside the writing transaction.
   */
  validateEvent: OutboxEventValidator;
}

/**
 * The transactional outbox: `OutboxWriter` for use cases, and the relay that publishes to Kafka.
 * Needs `DatabaseModule`, `KafkaModule`, `MetricsModule` and `ScheduleModule.forRoot()` in the app.
 */
@Module({})
export class OutboxModule {
  static forRoot(config: OutboxConfig, options: OutboxModuleOptions): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [
        { provide: OUTBOX_CONFIG, useValue: config },
        { provide: OUTBOX_EVENT_VALIDATOR, useValue: options.validateEvent },
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
