import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { bootstrapOrExit, loadConfig } from '@libs/config';
import { armFailpoints } from '@libs/failpoints';
import { databaseDependency, StartingServer } from '@libs/health';
import { configureHttpApp, httpServerOptions } from '@libs/http';
import { loyaltyApiDocs } from './loyalty.api-docs.js';
import { appLogger, NestPinoLogger, startTelemetry } from '@libs/telemetry';
import { loyaltyEnv, loyaltyStartChecks } from './loyalty.config.js';
import { LoyaltyAppModule } from './loyalty-app.module.js';

bootstrapOrExit('loyalty', async () => {
  // First: a FAILPOINTS outside a test launcher stops the process before anything else runs.
  armFailpoints();
  const config = loadConfig(loyaltyEnv);
  // Before the first connection: a missing or insecure variable is reported whatever is reachable.
  const warnings = loyaltyStartChecks(config);
  await startTelemetry('loyalty', config);
  for (const warning of warnings) appLogger().warn({ context: 'config' }, warning);
  // The port answers "starting" while the database is awaited, however long it takes.
  const starting = await StartingServer.listen(config.LOYALTY_PORT, config.HTTP_HOST);
  await starting.waitFor([databaseDependency(config)], (line) => appLogger().warn(line));
  const app = await NestFactory.create<NestFastifyApplication>(
    LoyaltyAppModule.forRoot(config),
    new FastifyAdapter(httpServerOptions(config)),
    {
      logger: new NestPinoLogger(),
    },
  );
  configureHttpApp(app, {
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    shutdownTimeoutMs: config.HTTP_SHUTDOWN_TIMEOUT_MS,
    docs: loyaltyApiDocs,
  });
  // Fastify made ready first, so the port is closed only for the moment the app takes it over.
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await starting.close();
  await app.listen(config.LOYALTY_PORT, config.HTTP_HOST);
});
