import { Controller, Get, HttpStatus, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, type HealthCheckResult, HealthCheckService, type HealthIndicatorFunction } from '@nestjs/terminus';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  type ApiResponseSchemaHost,
  ApiServiceUnavailableResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Public } from '@app/auth';
import { DatabaseHealthIndicator } from '@app/database';
import { PROBLEM_JSON, ProblemDetails, ProblemException } from '@app/http';
import { KafkaHealthIndicator } from '@app/kafka';
import { HealthErrorCodes } from './health.error-codes.js';

/** Terminus' per-dependency results: `info` (up), `error` (down) and `details` (all). */
const CHECKS: Record<string, NonNullable<ApiResponseSchemaHost['schema']>> = {
  info: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
  error: {
    type: 'object',
    additionalProperties: { type: 'object', properties: { status: { type: 'string' }, message: { type: 'string' } } },
  },
  details: { type: 'object', additionalProperties: { type: 'object' } },
};

/** A healthy answer: terminus' `status` and the checks. */
const HEALTH_BODY: ApiResponseSchemaHost['schema'] = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'] }, ...CHECKS },
};

/** A failed probe: problem details (`HEALTH.*` code) with the checks as extension members. */
const UNHEALTHY = {
  content: { [PROBLEM_JSON]: { schema: { allOf: [{ $ref: getSchemaPath(ProblemDetails) }, { type: 'object', properties: CHECKS }] } } },
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
@Public()
@ApiTags('operations')
@ApiExtraModels(ProblemDetails)
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
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer; `error` names it', ...UNHEALTHY })
  check() {
    const kafka = this.kafka;
    return this.probe([() => this.database.check(), ...(kafka ? [() => kafka.check()] : [])]);
  }

  @Get('live')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Liveness: the process answers; no dependency is checked' })
  @ApiOkResponse({ description: 'Alive', schema: HEALTH_BODY })
  live() {
    return this.probe([]);
  }

  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database answers (Kafka is not needed to serve HTTP)' })
  @ApiOkResponse({ description: 'Ready for traffic', schema: HEALTH_BODY })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer', ...UNHEALTHY })
  ready() {
    return this.probe([() => this.database.check()]);
  }

  /** Terminus' check, with its 503 turned into problem details like every other error answer. */
  private async probe(indicators: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const { status, ...checks } = error.getResponse() as HealthCheckResult;
      if (status === 'shutting_down') {
        throw new ProblemException(
          HttpStatus.SERVICE_UNAVAILABLE,
          HealthErrorCodes.SHUTTING_DOWN,
          'The process is shutting down',
          [],
          checks,
        );
      }
      const down = Object.keys(checks.error ?? {}).join(', ');
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, HealthErrorCodes.DEPENDENCY_DOWN, `Not answering: ${down}`, [], checks);
    }
  }
}
