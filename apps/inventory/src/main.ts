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
import { inventoryApiDocs } from './inventory.api-docs.js';
import { inventoryEnv } from './inventory.config.js';
import { InventoryAppModule } from './inventory-app.module.js';

bootstrapOrExit('inventory', async () => {
  const config = loadConfig(inventoryEnv);
  startTelemetry('inventory', config);
  const kafka = createKafka(kafkaClientOptions(config));
  await ensureTopics(kafka, [Topics.orders, Topics.reservations, deadLetterTopic(Topics.orders)], config.KAFKA_TOPIC_PARTITIONS);
  // A replay older than the inbox's memory would be applied twice: refuse to run like that.
  await assertInboxOutlivesTopics(kafka, [Topics.orders], config.INBOX_RETENTION_MS);
  const app = await NestFactory.create<NestExpressApplication>(InventoryAppModule.forRoot(config), { logger: new NestPinoLogger() });
  configureHttpApp(app, { bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES, docs: inventoryApiDocs });
  connectInboxKafka(app, kafkaServerOptions(config));
  await app.init();
  await app.startAllMicroservices();
  await app.listen(config.INVENTORY_PORT, config.HTTP_HOST);
});
