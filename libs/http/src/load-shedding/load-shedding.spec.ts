import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@tools/test-support';
import { HttpStatus } from '@nestjs/common';
import { problemAnswer, recordingReply } from '@test/fixtures';
import { Registry } from 'prom-client';
import { ProblemException } from '../problem.exception.js';
import { RequestErrorCodes } from '../request-error-codes.js';
import { type BacklogProbe, type BacklogReading, firstOverBound } from './backlog-reading.js';
import { BacklogSampler, type LoadSheddingOptions } from './backlog-sampler.js';
import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventLoopDelayProbe } from './event-loop-delay.probe.js';
import { loadSheddingHook, SHED_ROUTE_CONFIG } from './load-shedding.hook.js';

const probe = (...readings: BacklogReading[]): BacklogProbe => ({ read: async () => readings });
const failing: BacklogProbe = {
  read: async () => {
    throw new Error('connection refused');
  },
};

function sampler(probes: BacklogProbe[], options: Partial<LoadSheddingOptions> = {}) {
  const registry = new Registry();
  return {
    registry,
    sampler: new BacklogSampler(
      {
        enabled: true,
        intervalMs: 1000,
        retryAfterSeconds: 2,
        logIntervalMs: 10_000,
        inFlight: { targetLatencyMs: 500, minInFlight: 2 },
        probes,
        ...options,
      },
      registry,
    ),
  };
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

describe('firstOverBound with a figure a process produces by itself', () => {
  const delay: BacklogReading = { signal: 'event_loop_delay_ms', value: 400, bound: 100, whileRequestsInFlight: true };

  it('when no request is in flight, then a late loop is not a backlog; with one in flight it is', () => {
    expect(firstOverBound([delay], 0)).toBeUndefined();
    expect(firstOverBound([delay], 1)).toBe(delay);
  });

  it('when a figure only requests build up is past its bound, then it counts with none in flight', () => {
    const pending = { signal: 'outbox_pending', value: 6, bound: 5 };
    expect(firstOverBound([delay, pending], 0)).toBe(pending);
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

  it('when the loop is late while no request is in flight (a cold process), then the request is admitted, and the next one meets the delay', async () => {
    const { sampler: s, registry } = sampler(
      [probe({ signal: 'event_loop_delay_ms', value: 900, bound: 100, whileRequestsInFlight: true })],
      {
        inFlight: { targetLatencyMs: 500, minInFlight: 50 },
      },
    );
    await s.sample();
    const hook = loadSheddingHook(s);
    const first = arrive(hook);
    expect(first.error).toBeUndefined();
    const second = arrive(hook);
    expect(second.answer?.body.detail).toContain('event_loop_delay_ms is 900, past its bound of 100');
    first.close();
    expect(arrive(hook).error).toBeUndefined();
    expect(await registry.getSingleMetricAsString('http_requests_shed_total')).toContain(
      'http_requests_shed_total{signal="event_loop_delay_ms"} 1',
    );
  });

  it('when the server starts listening, then the delay measured during start-up is forgotten, and a read begun before does not bring it back', async () => {
    let restarted = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const delay: BacklogProbe = {
      read: async () => [{ signal: 'event_loop_delay_ms', value: 900, bound: 100, whileRequestsInFlight: true }],
      restart: () => {
        restarted += 1;
      },
    };
    const pending = probe({ signal: 'outbox_pending', value: 9, bound: 5 });
    let hold = false;
    const slow: BacklogProbe = { read: async () => (hold ? (await held, []) : []) };
    const { sampler: s } = sampler([delay, pending, slow]);
    await s.sample();
    hold = true;
    // One request in flight: the delay, read first, is what refuses the next.
    s.inFlight.tryEnter();
    expect(s.overBound()?.signal).toBe('event_loop_delay_ms');
    const before = s.sample();
    s.serverListening();
    release();
    await before;
    expect(restarted).toBe(1);
    // Only what requests build up is left: the outbox backlog still sheds, the start-up delay does not.
    expect(s.overBound()?.signal).toBe('outbox_pending');
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

/**
 * Runs the hook on a request to a route marked (or not): `error` is what it passed to `done`
 * ('not called' when it did not call it), `answer` what it sent itself, if anything.
 */
function arrive(hook: ReturnType<typeof loadSheddingHook>, marked = true) {
  const raw = new EventEmitter();
  const request = { routeOptions: { config: marked ? { [SHED_ROUTE_CONFIG]: true } : {} } } as unknown as FastifyRequest;
  const { reply, answer } = recordingReply(raw);
  let passed: unknown = 'not called';
  hook(request, reply as unknown as FastifyReply, (error?: unknown) => {
    passed = error;
  });
  return { error: passed, answer: answer(), close: () => raw.emit('close') };
}

describe('loadSheddingHook', () => {
  it('when the backlog is within bounds, then the request goes on and counts in flight until its response closes', async () => {
    const { sampler: s } = sampler([probe({ signal: 'a', value: 1, bound: 5 })]);
    await s.sample();
    const hook = loadSheddingHook(s);
    const first = arrive(hook);
    expect(first.error).toBeUndefined();
    expect(s.inFlight.reading().value).toBe(1);
    first.close();
    expect(s.inFlight.reading().value).toBe(0);
  });

  it('when a figure is past its bound, then 503 SERVER.OVERLOADED with Retry-After, counted by signal', async () => {
    const { sampler: s, registry } = sampler([probe({ signal: 'orders_pending', value: 12, bound: 10 })]);
    await s.sample();
    const { error, answer } = arrive(loadSheddingHook(s));
    // Answered by the hook itself, so Fastify runs nothing more of the request.
    expect(error).toBe('not called');
    expect(answer).toEqual({
      status: HttpStatus.SERVICE_UNAVAILABLE,
      headers: { 'retry-after': '2' },
      contentType: 'application/problem+json',
      body: {
        type: `urn:problem-type:${RequestErrorCodes.OVERLOADED}`,
        title: 'Service Unavailable',
        status: 503,
        code: RequestErrorCodes.OVERLOADED,
        detail: expect.stringContaining('orders_pending is 12, past its bound of 10'),
      },
    });
    // The very answer the problem filter writes for the same ProblemException.
    const detail = answer?.body.detail as string;
    expect(answer).toEqual(
      problemAnswer(new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, RequestErrorCodes.OVERLOADED, detail, [], {}, 2)),
    );
    expect(await registry.getSingleMetricAsString('http_requests_shed_total')).toContain(
      'http_requests_shed_total{signal="orders_pending"} 1',
    );
    expect(s.inFlight.reading().value).toBe(0);
  });

  it('when more requests are in flight than the bound, then the next is shed at once on in_flight, and admitted again once one closes', async () => {
    const { sampler: s, registry } = sampler([]);
    const hook = loadSheddingHook(s);
    const admitted = [arrive(hook), arrive(hook)];
    expect(admitted.map((a) => a.error)).toEqual([undefined, undefined]);
    const shed = arrive(hook);
    expect(shed.answer?.body.detail).toContain('in_flight is 3, past its bound of 2');
    shed.close();
    expect(s.inFlight.reading().value).toBe(2);
    admitted[0].close();
    expect(arrive(hook).error).toBeUndefined();
    expect(await registry.getSingleMetricAsString('http_requests_shed_total')).toContain('http_requests_shed_total{signal="in_flight"} 1');
  });

  it('when shedding is disabled, then requests past the in-flight bound are admitted and still counted', () => {
    const { sampler: s } = sampler([], { enabled: false });
    const hook = loadSheddingHook(s);
    expect([arrive(hook), arrive(hook), arrive(hook)].map((a) => a.error)).toEqual([undefined, undefined, undefined]);
    expect(s.inFlight.reading().value).toBe(3);
  });

  it('when the route is not marked, then it is neither shed nor counted', async () => {
    const { sampler: s } = sampler([probe({ signal: 'a', value: 9, bound: 1 })]);
    await s.sample();
    expect(arrive(loadSheddingHook(s), false).error).toBeUndefined();
    expect(s.inFlight.reading().value).toBe(0);
  });
});

describe('eventLoopDelayProbe', () => {
  it('when the loop was blocked, then the mean delay since the last read shows it, and the next read starts afresh', async () => {
    const delay = eventLoopDelayProbe(50);
    try {
      await delay.read();
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // Block the loop: every check of the histogram's timer is late meanwhile.
      }
      // The overdue check runs once the loop is free; a read before it has nothing to average yet.
      const blocked = await waitFor(
        async () => {
          const [reading] = await delay.read();
          return reading.value > 0 && reading;
        },
        { timeoutMs: 5_000, intervalMs: 5, description: 'the late check after the block' },
      );
      expect(blocked.signal).toBe('event_loop_delay_ms');
      // One check about 280 ms late, averaged with at most a few on time.
      expect(blocked.value).toBeGreaterThan(50);
      // Read again at once: no check ran since, and the block is not counted twice.
      const [afresh] = await delay.read();
      expect(afresh.value).toBe(0);
    } finally {
      delay.close?.();
    }
  });

  it('when restarted after a block, then the block is forgotten and the reading is marked as one a process produces by itself', async () => {
    const delay = eventLoopDelayProbe(50);
    try {
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // Block the loop, as loading and compiling at start-up does.
      }
      delay.restart?.();
      const [reading] = await delay.read();
      expect(reading).toEqual({ signal: 'event_loop_delay_ms', value: 0, bound: 50, whileRequestsInFlight: true });
    } finally {
      delay.close?.();
    }
  });
});
