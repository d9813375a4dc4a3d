import { type INestApplication, Logger } from '@nestjs/common';
import type { KafkaOptions } from '@nestjs/microservices';
import { INBOX_CONFIG, type InboxConfig } from '../inbox.config.js';
import { FetchLinger } from '../layers/fetch-linger.layer.js';
import { LayeredInbox } from '../layers/inbox.layers.js';
import { OffsetCommitsPerInterval } from '../layers/offset-commits-per-interval.layer.js';
import { InboxRoutes } from '../routing/inbox-routes.registry.js';
import { type InboxKafkaLayers, InboxKafkaServer } from './inbox-kafka.server.js';

/**
 * Connects the topics of the app's consumes declaration (given to `InboxModule.forRoot`) to Kafka
 * through {@link InboxKafkaServer}. Call after `NestFactory.create` and before `app.init()`.
 */
export function connectInboxKafka(app: INestApplication, options: KafkaOptions): void {
  if (!options.options) throw new Error('connectInboxKafka: Kafka options are required');
  const config = app.get<InboxConfig>(INBOX_CONFIG);
  // inheritAppConfig: a hybrid app's global enhancers then apply to the microservice as well.
  app.connectMicroservice(
    { strategy: new InboxKafkaServer(options.options, app.get(LayeredInbox), app.get(InboxRoutes), inboxKafkaLayers(config)) },
    { inheritAppConfig: true },
  );
}

/** The transport's speed-up layers that the configuration switches on. */
export function inboxKafkaLayers(config: InboxConfig): InboxKafkaLayers {
  const logger = new Logger(InboxKafkaServer.name);
  return {
    linger: config.INBOX_FETCH_LINGER_ENABLED ? new FetchLinger(config.INBOX_LINGER_MS) : undefined,
    commits: config.INBOX_OFFSET_COMMITS_PER_INTERVAL_ENABLED
      ? new OffsetCommitsPerInterval(config.INBOX_COMMIT_INTERVAL_MS, (line) => logger.warn(line))
      : undefined,
  };
}
