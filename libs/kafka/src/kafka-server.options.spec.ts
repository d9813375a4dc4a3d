import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@app/config';
import { kafkaEnv } from './kafka.config.js';
import { kafkaServerOptions } from './kafka-server.options.js';

const consumerOf = (source: Record<string, string>) =>
  kafkaServerOptions(loadConfig(kafkaEnv('test'), { KAFKA_BROKERS: '127.0.0.1:9092', ...source })).options?.consumer;

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
});
