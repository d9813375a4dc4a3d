import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { bootstrapOrExit, loadConfig } from '@app/config';
import { Topics } from '@app/contracts';
import { deadLetterTopic } from '@app/envelope';
import { configureHttpApp } from '@app/http';
import { NestPinoLogger, startTelemetry } from '@app/telemetry';
import { connectInboxKafka } from '@app/inbox';
import { assertInboxOutlivesTopics, createKafka, ensureTopics, kafkaClientOptions, kafkaServerOptions } from '@app/kafka';
import { ordersApiDocs } from './orders.api-docs.js';
import { ordersEnv } from './orders.config.js';
import { OrdersAppModule } from './orders-app.module.js';

bootstrapOrExit('orders', async () => {
  const config = loadConfig(ordersEnv);
  startTelemetry('orders', config);
  // Topics exist before the first publish or subscribe: production brokers rarely auto-create.
  const kafka = createKafka(kafkaClientOptions(config));
  await ensureTopics(kafka, [Topics.orders, Topics.reservations, deadLetterTopic(Topics.reservations)], config.KAFKA_TOPIC_PARTITIONS);
  // A replay older than the inbox's memory would be applied twice: refuse to run like that.
  await assertInboxOutlivesTopics(kafka, [Topics.reservations], config.INBOX_RETENTION_MS);
  const app = await NestFactory.create<NestExpressApplication>(OrdersAppModule.forRoot(config), { logger: new NestPinoLogger() });
  configureHttpApp(app, { bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES, docs: ordersApiDocs });
  connectInboxKafka(app, kafkaServerOptions(config));
  await app.init();
  await app.startAllMicroservices();
  await app.listen(config.ORDERS_PORT, config.HTTP_HOST);
});
