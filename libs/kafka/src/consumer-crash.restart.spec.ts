import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@tools/test-support';
import type { Consumer, ConsumerRunConfig } from 'kafkajs';
import { restartAfterCrash } from './consumer-crash.restart.js';

/**
 * A stand-in for a kafkajs consumer (the broker is outside this unit): it records the calls the
 * restart makes and emits the events kafkajs would. The real consumer crashing on a real broker
 * is exercised by test/kafka-cluster.
 */
class RecordingConsumer extends EventEmitter {
  readonly events = { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' };
  readonly calls: string[] = [];
  failRuns = 0;

  async disconnect() {
    this.calls.push('disconnect');
  }
  async connect() {
    this.calls.push('connect');
  }
  async run(config: ConsumerRunConfig) {
    this.calls.push(`run:${config.partitionsConsumedConcurrently}`);
    if (this.failRuns > 0) {
      this.failRuns -= 1;
      throw new Error('coordinator not available');
    }
  }
  crash(restart: boolean) {
    this.emit(this.events.CRASH, { payload: { error: new Error('This server is not the leader'), restart } });
  }
}

const until = (condition: () => boolean) => waitFor(condition, { timeoutMs: 2000, intervalMs: 5, description: 'the restart calls' });

function supervise(consumer: RecordingConsumer, closing = () => false) {
  const lines: string[] = [];
  restartAfterCrash(
    consumer as unknown as Consumer,
    { partitionsConsumedConcurrently: 3 },
    { isClosing: closing, log: (line) => lines.push(line), initialDelayMs: 1 },
  );
  return lines;
}

describe('restartAfterCrash', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('when kafkajs gives up on a crashed consumer (restart: false), then it is reconnected and run again with the same options', async () => {
    const consumer = new RecordingConsumer();
    const lines = supervise(consumer);
    consumer.crash(false);
    await until(() => consumer.calls.length === 3);
    expect(consumer.calls).toEqual(['disconnect', 'connect', 'run:3']);
    expect(lines[0]).toContain('This server is not the leader');
  });

  it('when a restart attempt fails, then it is tried again until one succeeds', async () => {
    const consumer = new RecordingConsumer();
    consumer.failRuns = 2;
    supervise(consumer);
    consumer.crash(false);
    await until(() => consumer.calls.filter((call) => call.startsWith('run')).length === 3);
    expect(consumer.failRuns).toBe(0);
  });

  it('when kafkajs restarts the consumer itself, or the owner is closing it, then nothing is done', async () => {
    // Fake timers: "nothing happens" is then "no restart was scheduled, and running every timer calls nothing", not a wait.
    jest.useFakeTimers();
    const restarting = new RecordingConsumer();
    supervise(restarting);
    restarting.crash(true);
    const closing = new RecordingConsumer();
    supervise(closing, () => true);
    closing.crash(false);
    expect(jest.getTimerCount()).toBe(0);
    await jest.runAllTimersAsync();
    expect(restarting.calls).toEqual([]);
    expect(closing.calls).toEqual([]);
  });
});
