import { describe, expect, it } from '@jest/globals';
import { trace } from '@opentelemetry/api';
import { appLogger, configureLogging, NestPinoLogger } from './app-logger.js';
import { annotateLog, runWithLogFields } from './log-fields.js';
import { contextFromTraceparent, withContext } from './trace-context.js';
import { appTracer, startTracing } from './tracing.js';

await startTracing({ serviceName: 'unit', otlpEndpoint: '' });

function capture(level = 'info'): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  configureLogging({ service: 'unit', level, format: 'json' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return lines;
}

describe('structured logs', () => {
  it("when a line is logged inside a span and a unit of work, then it is JSON with the service, the trace id and the unit's ids, annotations included", () => {
    const lines = capture();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const span = appTracer().startSpan('work', {}, contextFromTraceparent(`00-${traceId}-00f067aa0ba902b7-01`));
    withContext(trace.setSpan(contextFromTraceparent(undefined), span), () =>
      runWithLogFields({ messageId: 'm-1', correlationId: 'c-1' }, () => {
        annotateLog({ orderId: 'o-1' });
        appLogger().info('handled');
      }),
    );
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'handled',
        service: 'unit',
        traceId,
        messageId: 'm-1',
        correlationId: 'c-1',
        orderId: 'o-1',
        level: 30,
      }),
    ]);
  });

  it('when annotating outside a unit of work, then nothing happens and the line has no ids', () => {
    const lines = capture();
    annotateLog({ orderId: 'lost' });
    appLogger().info('plain');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toHaveProperty('orderId');
    expect(lines[0]).not.toHaveProperty('traceId');
  });

  it("when Nest logs through NestPinoLogger, then its context and an error's stack become fields, and LOG_LEVEL filters", () => {
    const lines = capture('warn');
    const logger = new NestPinoLogger();
    logger.log('mapped route', 'RouterExplorer');
    logger.warn('slow', 'OutboxRelay');
    logger.error('failed', 'Error: failed\n    at x', 'InboxProcessor');
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'slow', context: 'OutboxRelay' }),
      expect.objectContaining({ level: 50, msg: 'failed', context: 'InboxProcessor', stack: 'Error: failed\n    at x' }),
    ]);
  });
});
