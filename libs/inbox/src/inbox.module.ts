import { messageSigning } from '@app/envelope';
import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DeadLetterPublisher } from './dead-letter.publisher.js';
import { InboxBatchConsumer } from './inbox-batch.consumer.js';
import { InboxCleanupScheduler } from './inbox-cleanup.scheduler.js';
import { InboxHandlerRegistry } from './inbox-handler.registry.js';
import { InboxCleanup } from './inbox.cleanup.js';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxInterceptor } from './inbox.interceptor.js';
import { InboxMetrics } from './inbox.metrics.js';
import { InboxProcessor } from './inbox.processor.js';

@Injectable()
class DeadLetterCloser implements OnApplicationShutdown {
  constructor(@Inject(DeadLetterPublisher) private readonly publisher: DeadLetterPublisher) {}

  // After the Kafka server closed: the in-flight message may still need to dead-letter.
  async onApplicationShutdown(): Promise<void> {
    await this.publisher.close();
  }
}

/**
 * The inbox for Kafka handlers, and the cron job that prunes it. Needs `DatabaseModule`,
 * `KafkaModule`, `MetricsModule` and `ScheduleModule.forRoot()`.
 * Global, unlike the outbox and commands writers: `@Inbox()` applies `InboxInterceptor` by class,
 * which Nest instantiates in the module of each handler's controller, and its dependencies (the
 * process's one processor, batch consumer and dead-letter producer) must be the same instances
 * the Kafka server uses, not copies made per feature module; a global module is how Nest shares
 * the one configured instance with modules that cannot import it.
 */
@Module({})
export class InboxModule {
  static forRoot(config: InboxConfig): DynamicModule {
    // Bad signing keys fail the start-up, naming the variable, not the first message.
    messageSigning(config);
    return {
      module: InboxModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: INBOX_CONFIG, useValue: config },
        DeadLetterPublisher,
        InboxMetrics,
        InboxProcessor,
        InboxInterceptor,
        InboxHandlerRegistry,
        InboxBatchConsumer,
        DeadLetterCloser,
        InboxCleanup,
        InboxCleanupScheduler,
      ],
      exports: [InboxProcessor, InboxInterceptor, InboxBatchConsumer, InboxCleanup],
    };
  }
}
