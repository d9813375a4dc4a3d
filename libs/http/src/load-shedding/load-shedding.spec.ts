import { describe, expect, it } from '@jest/globals';
import { HttpStatus } from '@nestjs/common';
import { Registry } from 'prom-client';
import { ProblemException } from '../problem.exception.js';
import { RequestErrorCodes } from '../request-error-codes.js';
import { type BacklogProbe, type BacklogReading, firstOverBound } from './backlog-reading.js';
import { BacklogSampler, type LoadSheddingOptions } from './backlog-sampler.js';
import { LoadSheddingGuard } from './load-shedding.guard.js';

const probe = (...readings: BacklogReading[]): BacklogProbe => ({ read: async () => readings });
const failing: BacklogProbe = {
  read: async () => {
    throw new Error('connection refused');
  },
};

function sampler(probes: BacklogProbe[], options: Partial<LoadSheddingOptions> = {}) {
  const registry = new Registry();
  return { registry, sampler: new BacklogSampler({ enabled: true, intervalMs: 1000, retryAfterSeconds: 2, probes, ...options }, registry) };
}

describe('firstOverBound', () => {
  it('when every figure is at or under its bound, then nothing is over', () => {
    expect(firstOverBound([{ signal: 'a', value: 5, bound: 5 }])).toBeUndefined();
  });

  it('when a figure passes its bound, then it is the one named', () => {
    expect(
      firstOverBound([
        { signal: 'a', value: 1, bound: 5 },
        { signal: 'b', value: 6, bound: 5 },
      ])?.signal,
    ).toBe('b');
  });
});

describe('BacklogSampler', () => {
  it('when nothing was read yet, then it sheds nothing', () => {
    expect(sampler([probe({ signal: 'a', value: 9, bound: 1 })]).sampler.overBound()).toBeUndefined();
  });

  it('when a probe read a figure past its bound, then that figure is over and the gauges show it', async () => {
    const { sampler: s, registry } = sampler([probe({ signal: 'a', value: 1, bound: 5 }), probe({ signal: 'b', value: 7, bound: 5 })]);
    await s.sample();
    expect(s.overBound()).toEqual({ signal: 'b', value: 7, bound: 5 });
    expect(await registry.getSingleMetricAsString('load_shed_backlog')).toContain('load_shed_backlog{signal="b"} 7');
  });

  it('when shedding is disabled, then a figure past its bound sheds nothing', async () => {
    const { sampler: s } = sampler([probe({ signal: 'a', value: 9, bound: 1 })], { enabled: false });
    await s.sample();
    expect(s.overBound()).toBeUndefined();
  });

  it('when a read fails after one that was over, then the stale readings are forgotten', async () => {
    const probes = [probe({ signal: 'a', value: 9, bound: 1 })];
    const { sampler: s } = sampler(probes);
    await s.sample();
    expect(s.overBound()).toBeDefined();
    probes[0] = failing;
    await s.sample();
    expect(s.overBound()).toBeUndefined();
  });
});

describe('LoadSheddingGuard', () => {
  it('when the backlog is within bounds, then the request goes on', async () => {
    const { sampler: s } = sampler([probe({ signal: 'a', value: 1, bound: 5 })]);
    await s.sample();
    expect(new LoadSheddingGuard(s).canActivate()).toBe(true);
  });

  it('when a figure is past its bound, then 503 SERVER.OVERLOADED with Retry-After, counted by signal', async () => {
    const { sampler: s, registry } = sampler([probe({ signal: 'orders_pending', value: 12, bound: 10 })]);
    await s.sample();
    let thrown: unknown;
    try {
      new LoadSheddingGuard(s).canActivate();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    const problem = thrown as ProblemException;
    expect([problem.getStatus(), problem.code, problem.retryAfterSeconds]).toEqual([
      HttpStatus.SERVICE_UNAVAILABLE,
      RequestErrorCodes.OVERLOADED,
      2,
    ]);
    expect(problem.detail).toContain('orders_pending is 12, past its bound of 10');
    expect(await registry.getSingleMetricAsString('http_requests_shed_total')).toContain(
      'http_requests_shed_total{signal="orders_pending"} 1',
    );
  });
});
