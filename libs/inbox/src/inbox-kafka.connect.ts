import type { INestApplication } from '@nestjs/common';
import type { KafkaOptions } from '@nestjs/microservices';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxConsumer } from './inbox.consumer.js';
import { type InboxKafkaPacing, InboxKafkaServer } from './inbox-kafka.server.js';
import { InboxRoutes } from './inbox-routes.js';

/**
 * Connects the topics of the app's consumes declaration (given to `InboxModule.forRoot`) to Kafka
 * through {@link InboxKafkaServer}. Call after `NestFactory.create` and before `app.init()`.
 */
export function connectInboxKafka(app: INestApplication, options: KafkaOptions): void {
  if (!options.options) throw new Error('connectInboxKafka: Kafka options are required');
  // inheritAppConfig: a hybrid app's global enhancers then apply to the microservice as well.
  app.connectMicroservice(
    {
      strategy: new InboxKafkaServer(
        options.options,
        app.get(InboxConsumer),
        app.get(InboxRoutes),
        pacingOf(app.get<InboxConfig>(INBOX_CONFIG)),
      ),
    },
    { inheritAppConfig: true },
  );
}

function pacingOf(config: InboxConfig): InboxKafkaPacing {
  return { lingerMs: config.INBOX_LINGER_MS, commitIntervalMs: config.INBOX_COMMIT_INTERVAL_MS };
}
