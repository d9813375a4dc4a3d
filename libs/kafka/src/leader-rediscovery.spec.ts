import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { KafkaJSConnectionError, KafkaJSError, KafkaJSRequestTimeoutError } from 'kafkajs';
import { KAFKA_CLIENT_TIMING_DEFAULTS } from './kafka-client-timing.js';
import { installLeaderRediscovery } from './leader-rediscovery.js';

interface Group {
  cluster: { refreshMetadata(): Promise<void>; brokerPool?: { metadataExpireAt: number | null; metadataMaxAge: number } };
}

const load = createRequire(import.meta.url);
const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup.js') as {
  prototype: { recoverFromFetch(this: Group, error: Error): Promise<void> };
};

// The cluster stands in for kafkajs' metadata request (against real brokers); the real-broker
// behaviour is test/kafka-cluster/coordinator-kill.e2e-spec.ts and leader-kill.e2e-spec.ts.
function group(refresh: () => Promise<void> = () => Promise.resolve()): Group & { refreshes: number } {
  const state = {
    refreshes: 0,
    cluster: {
      refreshMetadata: () => {
        state.refreshes += 1;
        return refresh();
      },
    },
  };
  return state;
}

describe("kafkajs' consumer after a fetch lost its broker", () => {
  it.each([
    ['refused', new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { code: 'ECONNREFUSED' })],
    ['silent (request timeout)', new KafkaJSRequestTimeoutError('Request Fetch(key: 1, version: 11) timed out')],
  ])(
    'when the link was %s, then the metadata is refreshed and, after a pause, the fetch ends empty instead of reaching the runner (which stops every fetcher)',
    async (_case, error) => {
      installLeaderRediscovery();
      const consumer = group();
      const started = performance.now();
      await expect(ConsumerGroup.prototype.recoverFromFetch.call(consumer, error)).resolves.toBeUndefined();
      expect(consumer.refreshes).toBe(1);
      // The pause keeps a fetcher whose broker is dead from asking again in a tight loop.
      expect(performance.now() - started).toBeGreaterThanOrEqual(KAFKA_CLIENT_TIMING_DEFAULTS.retryInitialMs - 1);
    },
  );

  it('when the refresh fails too (no broker answers), then the fetch still ends empty and the fetcher tries again', async () => {
    installLeaderRediscovery();
    const error = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    const consumer = group(() => Promise.reject(new KafkaJSConnectionError('no broker answers')));
    await expect(ConsumerGroup.prototype.recoverFromFetch.call(consumer, error)).resolves.toBeUndefined();
    expect(consumer.refreshes).toBe(1);
  });

  it('when kafkajs refreshed the metadata itself just before (it could not connect), then it is not refreshed again', async () => {
    installLeaderRediscovery();
    const error = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { code: 'ECONNREFUSED' });
    const maxAge = KAFKA_CLIENT_TIMING_DEFAULTS.metadataMaxAgeMs;
    const fresh = group();
    // As kafkajs' BrokerPool.refreshMetadata leaves it: expiring one maximum age from now.
    fresh.cluster.brokerPool = { metadataExpireAt: Date.now() + maxAge, metadataMaxAge: maxAge };
    await ConsumerGroup.prototype.recoverFromFetch.call(fresh, error);
    expect(fresh.refreshes).toBe(0);
    // Refreshed a second ago, or dropped since (a broker removed sets it to null): refreshed now.
    const older = group();
    older.cluster.brokerPool = { metadataExpireAt: Date.now() + maxAge - 1000, metadataMaxAge: maxAge };
    await ConsumerGroup.prototype.recoverFromFetch.call(older, error);
    expect(older.refreshes).toBe(1);
    const dropped = group();
    dropped.cluster.brokerPool = { metadataExpireAt: null, metadataMaxAge: maxAge };
    await ConsumerGroup.prototype.recoverFromFetch.call(dropped, error);
    expect(dropped.refreshes).toBe(1);
  });

  it('when the error is not of the link, then kafkajs handles it as before, without a refresh', async () => {
    installLeaderRediscovery();
    const error = new KafkaJSError('The broker refused the request', { retriable: false });
    const consumer = group();
    await expect(ConsumerGroup.prototype.recoverFromFetch.call(consumer, error)).rejects.toBe(error);
    expect(consumer.refreshes).toBe(0);
  });

  it('when installed twice, then the patch wraps kafkajs once (a second wrap would refresh twice)', () => {
    installLeaderRediscovery();
    const patched = ConsumerGroup.prototype.recoverFromFetch;
    installLeaderRediscovery();
    expect(ConsumerGroup.prototype.recoverFromFetch).toBe(patched);
  });
});
