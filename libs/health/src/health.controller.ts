import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ApiOkResponse, ApiOperation, type ApiResponseSchemaHost, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { DatabaseHealthIndicator } from '@app/database';
import { KafkaHealthIndicator } from '@app/kafka';

/** Terminus' answer: `status`, and per dependency `info` (up), `error` (down) and `details` (all). */
const HEALTH_BODY: ApiResponseSchemaHost['schema'] = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'] },
    info: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
    error: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' }, message: { type: 'string' } } } },
    details: { type: 'object', additionalProperties: { type: 'object' } },
  },
};

/**
 * Three probes, because "restart me", "send me traffic" and "everything I talk to answers" are
 * different questions:
 * - `GET /health/live`: the process answers. Checks no dependency: restarting a service because
 *   Postgres or Kafka is down fixes nothing and loses the in-memory work of a healthy process.
 * - `GET /health/ready`: the database answers, which is all an HTTP request needs. Kafka is left
 *   out on purpose: orders keeps accepting orders during a Kafka outage (the outbox holds them).
 * - `GET /health`: every dependency, Kafka included, for dashboards, `npm start` and compose's
 *   start-up order.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(DatabaseHealthIndicator) private readonly database: DatabaseHealthIndicator,
    @Optional() @Inject(KafkaHealthIndicator) private readonly kafka?: KafkaHealthIndicator,
  ) {}

  @Get()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Every dependency answers: the database, and Kafka where the app uses it' })
  @ApiOkResponse({ description: 'All dependencies answer', schema: HEALTH_BODY })
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer; `error` names it', schema: HEALTH_BODY })
  check() {
    const kafka = this.kafka;
    return this.health.check([() => this.database.check(), ...(kafka ? [() => kafka.check()] : [])]);
  }

  @Get('live')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Liveness: the process answers; no dependency is checked' })
  @ApiOkResponse({ description: 'Alive', schema: HEALTH_BODY })
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database answers (Kafka is not needed to serve HTTP)' })
  @ApiOkResponse({ description: 'Ready for traffic', schema: HEALTH_BODY })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer', schema: HEALTH_BODY })
  ready() {
    return this.health.check([() => this.database.check()]);
  }
}
