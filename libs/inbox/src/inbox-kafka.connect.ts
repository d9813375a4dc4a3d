import type { INestApplication } from '@nestjs/common';
import type { KafkaOptions } from '@nestjs/microservices';
import { InboxBatchConsumer } from './inbox-batch.consumer.js';
import { InboxKafkaServer } from './inbox-kafka.server.js';

/**
 * Connects the app's `@EventPattern` handlers to Kafka through {@link InboxKafkaServer}, so
 * `@Inbox` handlers consume in batches. Call after `NestFactory.create` and before `app.init()`.
 */
export function connectInboxKafka(app: INestApplication, options: KafkaOptions): void {
  if (!options.options) throw new Error('connectInboxKafka: Kafka options are required');
  // inheritAppConfig: without it, global pipes, interceptors and filters silently skip Kafka handlers.
  app.connectMicroservice({ strategy: new InboxKafkaServer(options.options, app.get(InboxBatchConsumer)) }, { inheritAppConfig: true });
}
