import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from '@app/database';
import { KafkaHealthIndicator } from '@app/kafka';

/** `GET /health`: 200 when every dependency of this app answers, 503 naming the one that does not. */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(DatabaseHealthIndicator) private readonly database: DatabaseHealthIndicator,
    @Optional() @Inject(KafkaHealthIndicator) private readonly kafka?: KafkaHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    const kafka = this.kafka;
    return this.health.check([() => this.database.check(), ...(kafka ? [() => kafka.check()] : [])]);
  }
}
