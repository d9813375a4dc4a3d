import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { Kafka } from 'kafkajs';
import { describeCluster } from './kafka-admin.js';

/** `GET /health` entry: the cluster answers a metadata request within the timeout. */
@Injectable()
export class KafkaHealthIndicator {
  constructor(
    @Inject(Kafka) private readonly kafka: Kafka,
    @Inject(HealthIndicatorService) private readonly health: HealthIndicatorService,
  ) {}

  check(timeoutMs = 3000) {
    return this.health
      .check('kafka')
      .attempt(async () => describeCluster(this.kafka))
      .withTimeout(timeoutMs);
  }
}
