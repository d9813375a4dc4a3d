import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from '@libs/auth';
import { DatabaseModule } from '@libs/database';
import { HealthModule } from '@libs/health';
import { databasePoolProbe, eventLoopDelayProbe, LoadSheddingModule } from '@libs/http';
import { IdempotencyCleanupModule, IdempotencyConfigModule } from '@libs/idempotency';
import { consumedTopics, InboxModule } from '@libs/inbox';
import { ConsumerLagModule, kafkaClientOptions, kafkaHealthOptions, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { OutboxModule, outboxBacklogProbe } from '@libs/outbox';
import { TelemetryModule } from '@libs/telemetry';
import { DataSource } from 'typeorm';
import type { OrdersConfig } from './orders.config.js';
import { ordersConsumes } from './orders.consumes.js';
import { createOrdersDataSource } from './orders.data-source.js';
import { OrdersModule } from './orders/orders.module.js';
import { pendingOrdersProbe } from './orders/place-order/pending-orders.probe.js';
import { ReservationsModule } from './reservations/reservations.module.js';

/** Orders: HTTP API for orders, an outbox relay to Kafka, and (as a consumer) reservation results. */
@Module({})
export class OrdersAppModule {
  static forRoot(config: OrdersConfig): DynamicModule {
    return {
      module: OrdersAppModule,
      imports: [
        AuthModule.forRoot(config),
        DatabaseModule.forRoot({ useFactory: () => createOrdersDataSource(config) }),
        TelemetryModule,
        KafkaModule.forRoot({ useFactory: () => kafkaClientOptions(config) }),
        MetricsModule.forRoot({ service: 'orders' }),
        ConsumerLagModule.forRoot({
          groupId: config.KAFKA_CONSUMER_GROUP,
          topics: consumedTopics(ordersConsumes),
          intervalMs: config.KAFKA_LAG_INTERVAL_MS,
        }),
        ScheduleModule.forRoot(),
        OutboxModule.forRoot(config),
        InboxModule.forRoot(config, ordersConsumes),
        IdempotencyConfigModule.forRoot(config),
        IdempotencyCleanupModule.forRoot(config),
        LoadSheddingModule.forRoot({
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => ({
            enabled: config.LOAD_SHED_ENABLED,
            intervalMs: config.LOAD_SHED_SAMPLE_INTERVAL_MS,
            retryAfterSeconds: config.LOAD_SHED_RETRY_AFTER_SECONDS,
            logIntervalMs: config.LOAD_SHED_LOG_INTERVAL_MS,
            inFlight: { targetLatencyMs: config.LOAD_SHED_TARGET_LATENCY_MS, minInFlight: config.LOAD_SHED_IN_FLIGHT_MIN },
            probes: [
              eventLoopDelayProbe(config.LOAD_SHED_EVENT_LOOP_DELAY_MAX_MS),
              pendingOrdersProbe(dataSource, config.ORDERS_SHED_PENDING_MAX),
              outboxBacklogProbe(dataSource, {
                pendingMax: config.LOAD_SHED_OUTBOX_PENDING_MAX,
                oldestAgeMaxMs: config.LOAD_SHED_OUTBOX_AGE_MAX_MS,
              }),
              databasePoolProbe(dataSource, config.LOAD_SHED_DB_POOL_WAITING_MAX),
            ],
          }),
        }),
        HealthModule.forRoot({ kafka: kafkaHealthOptions(config) }),
        OrdersModule.forRoot({ burst: config.ORDERS_CUSTOMER_BURST, perSecond: config.ORDERS_CUSTOMER_RATE_PER_S }),
        ReservationsModule,
      ],
    };
  }
}
