import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
import type { Producer } from 'kafkajs';
import { loadConfig } from '@libs/config';
import { testInfrastructure } from '@test/fixtures';
import { uniqueName, waitFor } from '@tools/test-support';
import { ensureTopics } from './kafka-admin.js';
import { createIdempotentProducer, createKafka } from './kafka.factory.js';
import { kafkaServerOptions } from './kafka-server.options.js';
import { kafkaEnv } from './kafka.config.js';

const { brokers } = testInfrastructure();

describe('Nest Kafka transport against the real broker', () => {
  const topic = uniqueName('test.smoke').replace(/_/g, '-');
  const received: { payload: unknown; key: string | null; headers: Record<string, unknown>; offset: string }[] = [];
  let microservice: INestMicroservice;
  let producer: Producer;

  @Controller()
  class SmokeController {
    @EventPattern(topic)
    handle(@Payload() payload: object, @Ctx() context: unknown): void {
      const message = (context as KafkaContext).getMessage();
      received.push({ payload, key: message.key?.toString() ?? null, headers: message.headers ?? {}, offset: message.offset });
    }
  }

  @Module({ controllers: [SmokeController] })
  class SmokeModule {}

  beforeAll(async () => {
    const kafka = createKafka({ brokers, clientId: 'smoke-test' });
    await ensureTopics(kafka, [topic], 1);
    microservice = await NestFactory.createMicroservice(SmokeModule, {
      ...kafkaServerOptions({
        // The run's environment: the broker requires SASL, whose variables the global setup set.
        ...loadConfig(kafkaEnv('smoke-test'), { ...process.env, KAFKA_BROKERS: brokers.join(',') }),
        KAFKA_BROKERS: brokers,
        KAFKA_CLIENT_ID: 'smoke-test',
        KAFKA_CONSUMER_GROUP: uniqueName('test-smoke-group'),
        KAFKA_TOPIC_PARTITIONS: 1,
        KAFKA_TOPIC_REPLICATION_FACTOR: -1,
        KAFKA_TOPIC_MIN_INSYNC_REPLICAS: -1,
        KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY: 1,
        KAFKA_SESSION_TIMEOUT_MS: 10_000,
      }),
      logger: ['error', 'warn'],
    });
    await microservice.listen();
    producer = createIdempotentProducer(kafka);
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await microservice?.close();
  });

  it('when a record is produced, then the @EventPattern handler receives its value, key and headers', async () => {
    await producer.send({
      topic,
      acks: -1,
      messages: [{ key: 'order-1', value: JSON.stringify({ hello: 'kafka' }), headers: { 'message-id': 'm-1' } }],
    });
    const [message] = await waitFor(() => received.length > 0 && received, { timeoutMs: 60_000, description: 'the handler to run' });
    expect(message.payload).toEqual({ hello: 'kafka' });
    expect(message.key).toBe('order-1');
    expect(message.headers['message-id']).toBe('m-1');
    expect(message.offset).toBe('0');
  });
});
