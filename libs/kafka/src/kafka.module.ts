import { type DynamicModule, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { createKafka, type KafkaClientOptions } from './kafka.factory.js';
import { KafkaRequestMetrics } from './kafka-request.counter.js';

/**
 * Provides the app's kafkajs client (`Kafka`), shared by producers, admin and health checks.
 * Global, as the app's `DataSource` is: one client per process, like one pool per process.
 * Also counts the process' requests to Kafka by API (`kafka_requests_total`, {@link KafkaRequestMetrics}).
 */
@Module({})
export class KafkaModule {
  static forRoot(options: { useFactory: (...deps: never[]) => KafkaClientOptions; inject?: unknown[] }): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      providers: [
        {
          provide: Kafka,
          useFactory: (...deps: never[]) => createKafka(options.useFactory(...deps)),
          inject: (options.inject ?? []) as never[],
        },
        KafkaRequestMetrics,
      ],
      exports: [Kafka],
    };
  }
}
