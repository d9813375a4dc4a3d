import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PostgresTrafficMetrics } from './postgres-traffic.counter.js';
import { TransactionContext } from './transaction-context.js';

/** Injection token of the factory that builds the app's DataSource. */
const DATA_SOURCE_FACTORY = Symbol('DATA_SOURCE_FACTORY');

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  // Last in Nest's shutdown order, after Kafka consumers finished their in-flight transactions.
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * Provides the app's `DataSource` (initialised, schema from migrations) and its
 * {@link TransactionContext}. Global: every module of the app shares one pool. Also exports the
 * process' round trips and statements to Postgres (`postgres_round_trips_total`,
 * `postgres_statements_total`, {@link PostgresTrafficMetrics}).
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: { useFactory: (...deps: never[]) => DataSource; inject?: unknown[] }): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        { provide: DATA_SOURCE_FACTORY, useFactory: options.useFactory, inject: (options.inject ?? []) as never[] },
        {
          provide: DataSource,
          useFactory: async (dataSource: DataSource) => dataSource.initialize(),
          inject: [DATA_SOURCE_FACTORY],
        },
        { provide: TransactionContext, useFactory: (dataSource: DataSource) => new TransactionContext(dataSource), inject: [DataSource] },
        DataSourceCloser,
        PostgresTrafficMetrics,
      ],
      exports: [DataSource, TransactionContext],
    };
  }
}
