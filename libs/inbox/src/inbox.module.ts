import { ConfigValidationError } from '@libs/config';
import { messageVerification } from '@libs/envelope';
import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { retentionJob } from '@libs/database';
import { DeadLetterPublisher } from './dead-letter/dead-letter.publisher.js';
import type { AppConsumes } from './routing/consumed-topic.declaration.js';
import { INBOX_CONSUMES, InboxRoutes } from './routing/inbox-routes.registry.js';
import { InboxPartitionsGauges } from './retention/inbox-partitions.gauges.js';
import { missingProducerKeys } from './routing/producer-keys.check.js';
import { inboxRetention } from './retention/inbox.retention.js';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { LayeredInbox } from './layers/inbox.layers.js';
import { InboxMetrics } from './telemetry/inbox.metrics.js';

@Injectable()
class DeadLetterCloser implements OnApplicationShutdown {
  constructor(@Inject(DeadLetterPublisher) private readonly publisher: DeadLetterPublisher) {}

  // After the Kafka server closed: the in-flight message may still need to dead-letter.
  async onApplicationShutdown(): Promise<void> {
    await this.publisher.close();
  }
}

/**
 * The inbox of the topics `consumes` declares, and the cron job that prunes it. Needs
 * `DatabaseModule`, `KafkaModule`, `MetricsModule` and `ScheduleModule.forRoot()`; the handler
 * and lock providers the declaration names are resolved from whichever module lists them, once
 * the app is built. `connectInboxKafka` then connects the declared topics to Kafka.
 */
@Module({})
export class InboxModule {
  static forRoot(config: InboxConfig, consumes: AppConsumes): DynamicModule {
    // Bad verify keys, or none of a producer whose messages it consumes, fail the start-up, naming
    // the variable, not the first message.
    const missing = missingProducerKeys(messageVerification(config), consumes);
    if (missing.length > 0) throw new ConfigValidationError(missing);
    return {
      module: InboxModule,
      providers: [
        { provide: INBOX_CONFIG, useValue: config },
        { provide: INBOX_CONSUMES, useValue: consumes },
        DeadLetterPublisher,
        InboxMetrics,
        InboxPartitionsGauges,
        LayeredInbox,
        InboxRoutes,
        DeadLetterCloser,
        retentionJob({ inject: [INBOX_CONFIG, InboxMetrics], policy: inboxRetention }),
      ],
      exports: [LayeredInbox, InboxRoutes],
    };
  }
}
