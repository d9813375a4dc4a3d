import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { CommandsModule, commandsOptions } from '@libs/commands';
import { AuthModule, ClientCredentialsTokenSource } from '@libs/auth';
import { DatabaseModule } from '@libs/database';
import { HealthModule } from '@libs/health';
import { consumedTopics, InboxModule } from '@libs/inbox';
import { ConsumerLagModule, kafkaClientOptions, kafkaHealthOptions, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { OutboxModule } from '@libs/outbox';
import { TelemetryModule } from '@libs/telemetry';
import { inventoryConsumes } from './inventory.consumes.js';
import { InventoryConfigModule } from './inventory-config.module.js';
import type { InventoryConfig } from './inventory.config.js';
import { createInventoryDataSource } from './inventory.data-source.js';
import { LOYALTY_BATCHING, LOYALTY_COMMANDS_TABLE } from './reservations/reserve-stock/loyalty-accrual.command.js';
import { ReservationsModule } from './reservations/reservations.module.js';
import { StockModule } from './stock/stock.module.js';

/** Inventory: reserves stock for orders (inbox), answers through its outbox, credits loyalty. */
@Module({})
export class InventoryAppModule {
  static forRoot(config: InventoryConfig): DynamicModule {
    return {
      module: InventoryAppModule,
      imports: [
        InventoryConfigModule.forRoot(config),
        AuthModule.forRoot(config),
        DatabaseModule.forRoot({ useFactory: () => createInventoryDataSource(config) }),
        TelemetryModule,
        KafkaModule.forRoot({ useFactory: () => kafkaClientOptions(config) }),
        MetricsModule.forRoot({ service: 'inventory' }),
        ConsumerLagModule.forRoot({
          groupId: config.KAFKA_CONSUMER_GROUP,
          topics: consumedTopics(inventoryConsumes),
          intervalMs: config.KAFKA_LAG_INTERVAL_MS,
        }),
        ScheduleModule.forRoot(),
        OutboxModule.forRoot(config),
        InboxModule.forRoot(config, inventoryConsumes),
        // Loyalty accruals, written by the reservation and sent to loyalty until it acknowledges them.
        CommandsModule.forRoot({
          ...commandsOptions('LOYALTY', config, LOYALTY_COMMANDS_TABLE),
          batching: LOYALTY_BATCHING,
          tokenSource: new ClientCredentialsTokenSource(config),
        }),
        HealthModule.forRoot({ kafka: kafkaHealthOptions(config) }),
        StockModule,
        ReservationsModule,
      ],
    };
  }
}
