import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@libs/config';
import { kafkaEnv } from './kafka.config.js';
import { kafkaServerOptions } from './kafka-server.options.js';

const optionsOf = (source: Record<string, string>) =>
  kafkaServerOptions(loadConfig(kafkaEnv('test'), { KAFKA_BROKERS: '127.0.0.1:9092', ...source })).options;
const consumerOf = (source: Record<string, string>) => optionsOf(source)?.consumer;

describe('kafkaServerOptions', () => {
  it("when nothing is set, then a fetch returns as soon as one byte is there (kafkajs' own default), and an idle poll waits 500 ms (the Java consumer's default), so a stop never waits 5 s for one", () => {
    expect(consumerOf({})).toMatchObject({ groupId: 'test', minBytes: 1, maxWaitTimeInMs: 500 });
  });

  it('when the fetch variables are set, then the consumer waits for that many bytes, at most that long', () => {
    expect(consumerOf({ KAFKA_FETCH_MIN_BYTES: '16384', KAFKA_FETCH_MAX_WAIT_MS: '40' })).toMatchObject({
      minBytes: 16_384,
      maxWaitTimeInMs: 40,
    });
  });

  it('when a fetch variable is out of range, then loading the configuration fails naming it', () => {
    expect(() => consumerOf({ KAFKA_FETCH_MIN_BYTES: '0' })).toThrow(/KAFKA_FETCH_MIN_BYTES/);
    expect(() => consumerOf({ KAFKA_FETCH_MAX_WAIT_MS: '-1' })).toThrow(/KAFKA_FETCH_MAX_WAIT_MS/);
  });

  it("when nothing is set, then a client retries at most a second apart, long enough to outlast Kafka's default fencing, and gives up on a silent link after 10 s", () => {
    const client = optionsOf({})?.client;
    expect(client).toMatchObject({ requestTimeout: 10_000, retry: { initialRetryTime: 200, maxRetryTime: 1000 } });
    const { retries = 0, maxRetryTime = 0 } = client?.retry ?? {};
    // Kafka's broker.session.timeout.ms default: 9 s before a dead leader is replaced.
    expect(retries * maxRetryTime).toBeGreaterThan(9000);
    expect(consumerOf({})).toMatchObject({ metadataMaxAge: 30_000, rebalanceTimeout: 60_000 });
  });

  it("when nothing is set, then the consumer retries as long as the client (kafkajs' consumer default, 5 retries, ends inside a failover)", () => {
    const options = optionsOf({});
    expect(options?.consumer?.retry).toEqual(options?.client?.retry);
    expect(options?.consumer?.retry?.retries).toBeGreaterThan(5);
  });

  it('when the timing variables are set, then the client and the consumer take them', () => {
    const options = optionsOf({
      KAFKA_REQUEST_TIMEOUT_MS: '4000',
      KAFKA_RETRY_MAX_MS: '500',
      KAFKA_METADATA_MAX_AGE_MS: '5000',
      KAFKA_REBALANCE_TIMEOUT_MS: '20000',
    });
    expect(options?.client).toMatchObject({ requestTimeout: 4000, retry: { maxRetryTime: 500 } });
    expect(options?.consumer).toMatchObject({ metadataMaxAge: 5000, rebalanceTimeout: 20_000 });
  });
});
