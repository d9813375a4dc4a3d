import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { bootstrapOrExit, loadConfig } from '@libs/config';
import { armFailpoints } from '@libs/failpoints';
import { databaseDependency, kafkaDependency, StartingServer } from '@libs/health';
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
  // Throws when the Kafka security settings contradict each other, before the port opens.
  const clientOptions = kafkaClientOptions(config);
  // The port answers "starting" while the database and Kafka are awaited, however long they take.
  const starting = await StartingServer.listen(config.ORDERS_PORT, config.HTTP_HOST);
  const kafka = createKafka(clientOptions);
  const prepareKafka = async () => {
    // Topics exist before the first publish or subscribe: production brokers rarely auto-create.
    await ensureTopics(
      kafka,
      [...producedTopics(ordersProduces), ...inboxTopics(ordersConsumes)],
      config.KAFKA_TOPIC_PARTITIONS,
      topicSettings(config),
    );
    // A replay older than the inbox's memory would be applied twice: refuse to run like that.
    await assertInboxOutlivesTopics(kafka, consumedTopics(ordersConsumes), config.INBOX_RETENTION_MS);
  };
  await starting.waitFor([databaseDependency(config), kafkaDependency(clientOptions, prepareKafka)], (line) => appLogger().warn(line));
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
  // Fastify made ready first, so the port is closed only for the moment the app takes it over.
  await app.getHttpAdapter().getInstance().ready();
  await starting.close();
  await app.listen(config.ORDERS_PORT, config.HTTP_HOST);
});
