import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from '@jest/globals';
import { installRequestQueueTimerFix } from './request-queue-timer.js';

const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as new (options: object) => {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
};

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const queues: InstanceType<typeof RequestQueue>[] = [];

function queue(): InstanceType<typeof RequestQueue> {
  const made = new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 30_000, clientId: 'test', broker: 'test:9092', logger: silent });
  queues.push(made);
  return made;
}

describe("kafkajs' request queue timer (tulios/kafkajs#1751)", () => {
  afterEach(() => {
    for (const made of queues.splice(0)) if (made.throttleCheckTimeoutId) clearTimeout(made.throttleCheckTimeoutId);
  });

  it('when nothing waits and nothing throttles, then a check schedules no timer: an idle connection never wakes its process', () => {
    installRequestQueueTimerFix();
    const idle = queue();
    idle.checkPendingRequests();
    expect(idle.throttleCheckTimeoutId).toBeNull();
  });

  it('when requests wait, or a broker throttles, then a check is still scheduled: nothing waiting is left behind', () => {
    installRequestQueueTimerFix();
    const waiting = queue();
    waiting.throttledUntil = Date.now() + 60_000;
    waiting.pending.push({});
    waiting.checkPendingRequests();
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();
    const throttled = queue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.checkPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  });
});
