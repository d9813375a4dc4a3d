import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { Kafka } from 'kafkajs';
import { KafkaHealthIndicator } from './kafka.health.js';

const CACHE_MS = 2000;

/** A kafkajs client whose admin clients count what the probe asks of them; `fail` makes the broker refuse. */
class FakeKafka {
  admins = 0;
  connects = 0;
  requests = 0;
  disconnects = 0;
  fail: Error | undefined;
  /** Resolves the metadata requests in flight; until then they wait, as a slow broker does. */
  private pending: (() => void)[] = [];

  admin() {
    this.admins += 1;
    return {
      connect: async () => {
        this.connects += 1;
      },
      describeCluster: () => {
        this.requests += 1;
        const error = this.fail;
        return new Promise((resolve, reject) =>
          this.pending.push(() => (error ? reject(error) : resolve({ brokers: [{ nodeId: 1 }], controller: 1, clusterId: 'c' }))),
        );
      },
      disconnect: async () => {
        this.disconnects += 1;
      },
    };
  }

  answer() {
    for (const resolve of this.pending.splice(0)) resolve();
  }
}

/** `n` probes at once, answered by the broker once all of them are waiting. */
async function probes(indicator: KafkaHealthIndicator, kafka: FakeKafka, n: number) {
  const calls = Array.from({ length: n }, () => Promise.resolve(indicator.check()));
  // Let every call reach the (shared) metadata request before the broker answers.
  await jest.advanceTimersByTimeAsync(0);
  kafka.answer();
  return (await Promise.all(calls)).map((result) => result.kafka.status);
}

describe('KafkaHealthIndicator', () => {
  let kafka: FakeKafka;
  let indicator: KafkaHealthIndicator;

  beforeEach(() => {
    jest.useFakeTimers({ now: Date.parse('2026-12-01T00:00:00Z') });
    kafka = new FakeKafka();
    indicator = new KafkaHealthIndicator(kafka as unknown as Kafka, new HealthIndicatorService(), { cacheMs: CACHE_MS });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('when 50 probes arrive at once and 50 more within the interval, then one admin connection sends one metadata request', async () => {
    expect(await probes(indicator, kafka, 50)).toEqual(Array(50).fill('up'));
    await jest.advanceTimersByTimeAsync(CACHE_MS - 100);
    expect(await probes(indicator, kafka, 50)).toEqual(Array(50).fill('up'));
    expect({ admins: kafka.admins, connects: kafka.connects, requests: kafka.requests, disconnects: kafka.disconnects }).toEqual({
      admins: 1,
      connects: 1,
      requests: 1,
      disconnects: 0,
    });
  });

  it('when the interval has passed, then the next probe sends a new request over the same connection', async () => {
    await probes(indicator, kafka, 5);
    await jest.advanceTimersByTimeAsync(CACHE_MS + 1);
    expect(await probes(indicator, kafka, 5)).toEqual(Array(5).fill('up'));
    expect({ admins: kafka.admins, connects: kafka.connects, requests: kafka.requests }).toEqual({ admins: 1, connects: 1, requests: 2 });
  });

  it('when the broker fails, then down is reported and cached for the interval; the probe after it reconnects and retries', async () => {
    kafka.fail = new Error('Connection error: ECONNREFUSED');
    const first = Promise.resolve(indicator.check());
    await jest.advanceTimersByTimeAsync(0);
    kafka.answer();
    expect((await first).kafka).toMatchObject({ status: 'down', message: 'Connection error: ECONNREFUSED' });
    // The failed client was closed; within the interval the failure is the answer, with no new request.
    expect({ requests: kafka.requests, disconnects: kafka.disconnects }).toEqual({ requests: 1, disconnects: 1 });
    expect(await probes(indicator, kafka, 3)).toEqual(['down', 'down', 'down']);
    expect(kafka.requests).toBe(1);

    kafka.fail = undefined;
    await jest.advanceTimersByTimeAsync(CACHE_MS + 1);
    expect(await probes(indicator, kafka, 3)).toEqual(['up', 'up', 'up']);
    expect({ admins: kafka.admins, connects: kafka.connects, requests: kafka.requests }).toEqual({ admins: 2, connects: 2, requests: 2 });
  });

  it('when the broker does not answer within the timeout, then down is reported and the hanging client is dropped', async () => {
    const call = Promise.resolve(indicator.check());
    await jest.advanceTimersByTimeAsync(3001);
    expect((await call).kafka).toMatchObject({ status: 'down', message: 'timeout of 3000ms exceeded' });
    expect(kafka.disconnects).toBe(1);
    await jest.advanceTimersByTimeAsync(CACHE_MS);
    expect(await probes(indicator, kafka, 1)).toEqual(['up']);
    expect(kafka.admins).toBe(2);
  });

  it('when the app shuts down, then the admin client is disconnected and no probe opens another', async () => {
    await probes(indicator, kafka, 1);
    await indicator.onApplicationShutdown();
    expect(kafka.disconnects).toBe(1);
    await jest.advanceTimersByTimeAsync(CACHE_MS + 1);
    expect((await indicator.check()).kafka.status).toBe('down');
    expect(kafka.admins).toBe(1);
  });
});
