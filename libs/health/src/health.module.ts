import { type DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from '@libs/database';
import { KAFKA_HEALTH_OPTIONS, KafkaHealthIndicator, type KafkaHealthOptions } from '@libs/kafka';
import { HealthController } from './health.controller.js';

/**
 * Adds `GET /health` (database, and Kafka when the app uses it), `/health/live` and `/health/ready`.
 * `kafka`: the Kafka probe's options (`kafkaHealthOptions(config)`), or false for an app without Kafka.
 */
@Module({})
export class HealthModule {
  static forRoot(options: { kafka: KafkaHealthOptions | false }): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule],
      controllers: [HealthController],
      providers: [
        DatabaseHealthIndicator,
        ...(options.kafka ? [{ provide: KAFKA_HEALTH_OPTIONS, useValue: options.kafka }, KafkaHealthIndicator] : []),
      ],
    };
  }
}
