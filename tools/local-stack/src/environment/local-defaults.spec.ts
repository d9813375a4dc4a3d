import { describe, expect, it } from '@jest/globals';
import { LocalDefaults, localEnvironment } from './local-defaults.js';

describe('localEnvironment', () => {
  it('when nothing is set, then the local defaults are filled in', () => {
    expect(localEnvironment({})).toMatchObject(LocalDefaults);
  });

  it('when LOYALTY_PORT moves loyalty, then LOYALTY_BASE_URL follows it', () => {
    expect(localEnvironment({ LOYALTY_PORT: '4102' }).LOYALTY_BASE_URL).toBe('http://127.0.0.1:4102');
  });

  it('when LOYALTY_BASE_URL is set, then it wins over LOYALTY_PORT', () => {
    const env = localEnvironment({ LOYALTY_PORT: '4102', LOYALTY_BASE_URL: 'http://loyalty:3002' });
    expect(env.LOYALTY_BASE_URL).toBe('http://loyalty:3002');
  });

  it('when one local Kafka node listens on KAFKA_LOCAL_PORT, then KAFKA_BROKERS names that port', () => {
    expect(localEnvironment({ KAFKA_LOCAL_PORT: '19292' }).KAFKA_BROKERS).toBe('127.0.0.1:19292');
  });

  it('when one local node is given by KAFKA_LOCAL_PORTS, then KAFKA_BROKERS names its first port', () => {
    expect(localEnvironment({ KAFKA_LOCAL_PORTS: '19500' }).KAFKA_BROKERS).toBe('127.0.0.1:19500');
  });

  it('when three local nodes run, then KAFKA_BROKERS lists them by the port rule of kafka-local.sh', () => {
    const env = localEnvironment({ KAFKA_LOCAL_NODES: '3', KAFKA_LOCAL_PORT: '19292' });
    expect(env.KAFKA_BROKERS).toBe('127.0.0.1:19292,127.0.0.1:19302,127.0.0.1:19312');
  });

  it('when KAFKA_BROKERS is set, then it wins over the local ports', () => {
    expect(localEnvironment({ KAFKA_LOCAL_PORT: '19292', KAFKA_BROKERS: 'kafka:9092' }).KAFKA_BROKERS).toBe('kafka:9092');
  });
});
