import { Logger, ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { DatabaseHealthIndicator } from '@libs/database';
import { ProblemException } from '@libs/http';
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
  // The controller logs a failed check's details; the test output does not need them.
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterAll(() => {
    jest.restoreAllMocks();
  });

  it('when every dependency answers, then the probe returns terminus result unchanged', async () => {
    const result: HealthCheckResult = {
      status: 'ok',
      info: { database: { status: 'up' } },
      error: {},
      details: { database: { status: 'up' } },
    };
    await expect(controllerAnswering(result).ready()).resolves.toEqual(result);
  });

  it("when the database is down, then the 503 is a problem with HEALTH.DEPENDENCY_DOWN naming it, with each check's status and not the driver's message", async () => {
    const driverText = 'password authentication failed for user "orders_app" at 10.0.3.7:5432';
    const down = { database: { status: 'down' as const, message: driverText } };
    const error = await controllerAnswering({ status: 'error', info: {}, error: down, details: down })
      .ready()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemException);
    expect(error).toMatchObject({ code: 'HEALTH.DEPENDENCY_DOWN', detail: 'Not answering: database' });
    expect((error as ProblemException).extensions).toEqual({
      info: {},
      error: { database: { status: 'down' } },
      details: { database: { status: 'down' } },
    });
    expect(JSON.stringify((error as ProblemException).extensions)).not.toContain('10.0.3.7');
    expect((error as ProblemException).getStatus()).toBe(503);
    // terminus' own `status: 'error'` must not reach the body: there `status` is the HTTP status.
    expect((error as ProblemException).extensions).not.toHaveProperty('status');
  });

  it('when every dependency answers with details of its own, then only their statuses are returned', async () => {
    const up = { kafka: { status: 'up' as const, brokers: ['10.0.3.8:9092'] } };
    await expect(controllerAnswering({ status: 'ok', info: up, error: {}, details: up }).check()).resolves.toEqual({
      status: 'ok',
      info: { kafka: { status: 'up' } },
      error: {},
      details: { kafka: { status: 'up' } },
    });
  });

  it('when the process is shutting down, then the 503 says so with HEALTH.SHUTTING_DOWN', async () => {
    const error = await controllerAnswering({ status: 'shutting_down', info: {}, error: {}, details: {} })
      .live()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'HEALTH.SHUTTING_DOWN' });
  });
});
