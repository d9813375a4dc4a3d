import { ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { describe, expect, it } from '@jest/globals';
import type { DatabaseHealthIndicator } from '@app/database';
import { ProblemException } from '@app/http';
import { HealthController } from './health.controller.js';

/** A controller whose terminus check answers `result` the way terminus does: 503 unless ok. */
function controllerAnswering(result: HealthCheckResult): HealthController {
  const health = {
    check: () => (result.status === 'ok' ? Promise.resolve(result) : Promise.reject(new ServiceUnavailableException(result))),
  } as unknown as HealthCheckService;
  const database = { check: () => Promise.resolve({ database: { status: 'up' } }) } as unknown as DatabaseHealthIndicator;
  return new HealthController(health, database);
}

describe('HealthController', () => {
  it('when every dependency answers, then the probe returns terminus result unchanged', async () => {
    const result: HealthCheckResult = {
      status: 'ok',
      info: { database: { status: 'up' } },
      error: {},
      details: { database: { status: 'up' } },
    };
    await expect(controllerAnswering(result).ready()).resolves.toEqual(result);
  });

  it('when the database is down, then the 503 is a problem with HEALTH.DEPENDENCY_DOWN naming it and the checks as members', async () => {
    const down = { database: { status: 'down' as const, message: 'timeout' } };
    const error = await controllerAnswering({ status: 'error', info: {}, error: down, details: down })
      .ready()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemException);
    expect(error).toMatchObject({
      code: 'HEALTH.DEPENDENCY_DOWN',
      detail: 'Not answering: database',
      extensions: { info: {}, error: down, details: down },
    });
    expect((error as ProblemException).getStatus()).toBe(503);
    // terminus' own `status: 'error'` must not reach the body: there `status` is the HTTP status.
    expect((error as ProblemException).extensions).not.toHaveProperty('status');
  });

  it('when the process is shutting down, then the 503 says so with HEALTH.SHUTTING_DOWN', async () => {
    const error = await controllerAnswering({ status: 'shutting_down', info: {}, error: {}, details: {} })
      .live()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'HEALTH.SHUTTING_DOWN' });
  });
});
