import { type DynamicModule, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { createKafka, type KafkaClientOptions } from './kafka.factory.js';

/**
 * Provides the app's kafkajs client (`Kafka`), shared by producers, admin and health checks.
 * Global, as the app's `DataSource` is: one client per process, like one pool per process.
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
      ],
      exports: [Kafka],
    };
  }
}
