import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { logLevel } from 'kafkajs';
import { pino } from 'pino';
import { kafkaServerOptions } from './kafka-server.options.js';
import { kafkaLogCreator } from './kafka-log-creator.js';

function capture(): { lines: Record<string, unknown>[]; logger: pino.Logger } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'debug', base: { service: 'orders' } }, stream) };
}

describe('kafkaLogCreator', () => {
  it("when kafkajs logs, then the line goes through the app's pino logger in its shape: level, msg, context kafkajs, the kafkajs fields", () => {
    const { lines, logger } = capture();
    const log = kafkaLogCreator(() => logger)(logLevel.WARN);
    log({
      namespace: 'Connection',
      level: logLevel.WARN,
      label: 'WARN',
      log: { message: 'Connection timeout', timestamp: '2024-01-01T00:00:00.000Z', logger: 'kafkajs', broker: '127.0.0.1:9092' },
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'Connection timeout',
        context: 'kafkajs',
        namespace: 'Connection',
        broker: '127.0.0.1:9092',
        service: 'orders',
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('timestamp');
    expect(lines[0]).not.toHaveProperty('logger');
  });

  it('when kafkajs logs an error, then pino writes it at error level', () => {
    const { lines, logger } = capture();
    kafkaLogCreator(() => logger)(logLevel.ERROR)({
      namespace: 'Consumer',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: { message: 'Crash', timestamp: '', logger: 'kafkajs' },
    });
    expect(lines.map((line) => line.level)).toEqual([50]);
  });

  it("when the Nest Kafka transport creates its client, then it logs through the app's logger too", () => {
    const options = kafkaServerOptions({ KAFKA_BROKERS: ['127.0.0.1:9092'] } as never).options as {
      client: { logCreator?: unknown; logLevel?: unknown };
    };
    expect(typeof options.client.logCreator).toBe('function');
    expect(options.client.logLevel).toBe(logLevel.WARN);
  });
});
