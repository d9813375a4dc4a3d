import { type DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from '@app/database';
import { KafkaHealthIndicator } from '@app/kafka';
import { HealthController } from './health.controller.js';

/** Adds `GET /health` (database, and Kafka when the app uses it), `/health/live` and `/health/ready`. */
@Module({})
export class HealthModule {
  static forRoot(options: { kafka: boolean }): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule],
      controllers: [HealthController],
      providers: [DatabaseHealthIndicator, ...(options.kafka ? [KafkaHealthIndicator] : [])],
    };
  }
}
