import { type DynamicModule, Module } from '@nestjs/common';
import { CONSUMER_LAG_OPTIONS, type ConsumerLagOptions, ConsumerLagMonitor } from './consumer-lag.monitor.js';

/** Exports `kafka_consumer_lag` for the app's consumer group. Needs `KafkaModule` and `MetricsModule`. */
@Module({})
export class ConsumerLagModule {
  static forRoot(options: ConsumerLagOptions): DynamicModule {
    return {
      module: ConsumerLagModule,
      providers: [{ provide: CONSUMER_LAG_OPTIONS, useValue: options }, ConsumerLagMonitor],
    };
  }
}
