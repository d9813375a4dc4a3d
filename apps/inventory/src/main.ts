import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { bootstrapOrExit, loadConfig } from '@libs/config';
import { armFailpoints } from '@libs/failpoints';
import { configureHttpApp, httpServerOptions } from '@libs/http';
import { appLogger, NestPinoLogger, startTelemetry } from '@libs/telemetry';
import { producedTopics } from '@libs/outbox';
import { connectInboxKafka, consumedTopics, inboxTopics } from '@libs/inbox';
import { assertInboxOutlivesTopics, createKafka, ensureTopics, kafkaClientOptions, kafkaServerOptions, topicSettings } from '@libs/kafka';
import { inventoryApiDocs } from './inventory.api-docs.js';
import { inventoryEnv, inventoryStartChecks } from './inventory.config.js';
import { inventoryConsumes } from './inventory.consumes.js';
import { inventoryProduces } from './inventory.produces.js';
import { InventoryAppModule } from './inventory-app.module.js';

bootstrapOrExit('inventory', async () => {
  // First: a FAILPOINTS outside a test launcher stops the process before anything else runs.
  armFailpoints();
  const config = loadConfig(inventoryEnv);
  // Before the first connection: a missing or insecure variable is reported whatever is reachable.
  const warnings = inventoryStartChecks(config);
  await startTelemetry('inventory', config);
  for (const warning of warnings) appLogger().warn({ context: 'config' }, warning);
  const kafka = createKafka(kafkaClientOptions(config));
  await ensureTopics(
    kafka,
    [...inboxTopics(inventoryConsumes), ...producedTopics(inventoryProduces)],
    config.KAFKA_TOPIC_PARTITIONS,
    topicSettings(config),
  );
  // A replay older than the inbox's memory would be applied twice: refuse to run like that.
  await assertInboxOutlivesTopics(kafka, consumedTopics(inventoryConsumes), config.INBOX_RETENTION_MS);
  const app = await NestFactory.create<NestFastifyApplication>(
    InventoryAppModule.forRoot(config),
    new FastifyAdapter(httpServerOptions(config)),
    {
      logger: new NestPinoLogger(),
    },
  );
  configureHttpApp(app, {
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    shutdownTimeoutMs: config.HTTP_SHUTDOWN_TIMEOUT_MS,
    docs: inventoryApiDocs,
  });
  connectInboxKafka(app, kafkaServerOptions(config));
  await app.init();
  await app.startAllMicroservices();
  await app.listen(config.INVENTORY_PORT, config.HTTP_HOST);
});
