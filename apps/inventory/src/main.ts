import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { bootstrapOrExit, loadConfig } from '@app/config';
import { deadLetterTopic, Topics } from '@app/contracts';
import { configureHttpApp } from '@app/http';
import { createKafka, ensureTopics, kafkaServerOptions } from '@app/kafka';
import { inventoryApiDocs } from './inventory.api-docs.js';
import { inventoryEnv } from './inventory.config.js';
import { InventoryAppModule } from './inventory.module.js';

bootstrapOrExit('inventory', async () => {
  const config = loadConfig(inventoryEnv);
  await ensureTopics(
    createKafka({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID }),
    [Topics.orders, Topics.reservations, deadLetterTopic(Topics.orders)],
    config.KAFKA_TOPIC_PARTITIONS,
  );
  const app = await NestFactory.create<NestExpressApplication>(InventoryAppModule.forRoot(config));
  configureHttpApp(app, { bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES, docs: inventoryApiDocs });
  // inheritAppConfig: without it, global pipes and interceptors silently skip Kafka handlers.
  app.connectMicroservice(kafkaServerOptions(config), { inheritAppConfig: true });
  await app.init();
  await app.startAllMicroservices();
  await app.listen(config.INVENTORY_PORT, config.HTTP_HOST);
});
