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
import { ordersApiDocs } from './orders.api-docs.js';
import { ordersConsumes } from './orders.consumes.js';
import { ordersProduces } from './orders.produces.js';
import { ordersEnv, ordersStartChecks } from './orders.config.js';
import { OrdersAppModule } from './orders-app.module.js';

bootstrapOrExit('orders', async () => {
  // First: a FAILPOINTS outside a test launcher stops the process before anything else runs.
  armFailpoints();
  const config = loadConfig(ordersEnv);
  // Before the first connection: a missing or insecure variable is reported whatever is reachable.
  const warnings = ordersStartChecks(config);
  await startTelemetry('orders', config);
  for (const warning of warnings) appLogger().warn({ context: 'config' }, warning);
  // Topics exist before the first publish or subscribe: production brokers rarely auto-create.
  const kafka = createKafka(kafkaClientOptions(config));
  await ensureTopics(
    kafka,
    [...producedTopics(ordersProduces), ...inboxTopics(ordersConsumes)],
    config.KAFKA_TOPIC_PARTITIONS,
    topicSettings(config),
  );
  // A replay older than the inbox's memory would be applied twice: refuse to run like that.
  await assertInboxOutlivesTopics(kafka, consumedTopics(ordersConsumes), config.INBOX_RETENTION_MS);
  const app = await NestFactory.create<NestFastifyApplication>(
    OrdersAppModule.forRoot(config),
    new FastifyAdapter(httpServerOptions(config)),
    {
      logger: new NestPinoLogger(),
    },
  );
  configureHttpApp(app, {
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    shutdownTimeoutMs: config.HTTP_SHUTDOWN_TIMEOUT_MS,
    docs: ordersApiDocs,
  });
  connectInboxKafka(app, kafkaServerOptions(config));
  await app.init();
  await app.startAllMicroservices();
  await app.listen(config.ORDERS_PORT, config.HTTP_HOST);
});
