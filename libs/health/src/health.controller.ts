import { Controller, Get, HttpStatus, Inject, Logger, Optional, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  type HealthCheckResult,
  HealthCheckService,
  type HealthIndicatorFunction,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  type ApiResponseSchemaHost,
  ApiServiceUnavailableResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Public } from '@libs/auth';
import { DatabaseHealthIndicator } from '@libs/database';
import { PROBLEM_JSON, ProblemDetails, ProblemException } from '@libs/http';
import { KafkaHealthIndicator } from '@libs/kafka';
import { HealthErrorCodes } from './health.error-codes.js';

/** Terminus' per-dependency results: `info` (up), `error` (down) and `details` (all). */
const CHECKS: Record<string, NonNullable<ApiResponseSchemaHost['schema']>> = {
  info: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
  error: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
  details: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
};

/**
 * Each dependency's `status` alone. A failed indicator carries the driver's message (a host and
 * port, a user name, "password authentication failed", a TLS detail), which tells whoever can
 * reach the probe how the service is wired: the answer names the dependency, the log
 * has the message.
 */
function statusesOnly(results: Partial<HealthIndicatorResult> | undefined): HealthIndicatorResult {
  const statuses: HealthIndicatorResult = {};
  for (const [name, result] of Object.entries(results ?? {})) if (result) statuses[name] = { status: result.status };
  return statuses;
}

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
  private readonly logger = new Logger('Health');

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

  /**
   * Terminus' check, with its 503 turned into problem details like every other error answer, and
   * every dependency reduced to its status (see {@link statusesOnly}); the details go to the log.
   */
  private async probe(indicators: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      const { status, info, error, details } = await this.health.check(indicators);
      return { status, info: statusesOnly(info), error: statusesOnly(error), details: statusesOnly(details) };
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const { status, ...raw } = error.getResponse() as HealthCheckResult;
      if (status !== 'shutting_down') this.logger.warn(`health check failed: ${JSON.stringify(raw.error ?? {})}`);
      const checks = { info: statusesOnly(raw.info), error: statusesOnly(raw.error), details: statusesOnly(raw.details) };
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
