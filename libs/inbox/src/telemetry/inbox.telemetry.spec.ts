import { describe, expect, it } from '@jest/globals';
import { configureLogging } from '@libs/telemetry';
import { endMessageTelemetry, startMessageTelemetry } from './inbox.telemetry.js';

function capture(level: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  configureLogging({ service: 'unit', level, format: 'json' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return lines;
}

const record = { topic: 'orders.orders.v1', partition: 0, offset: '7', key: 'k', value: {}, headers: { 'message-id': 'm-1' } };

describe('the message handled line', () => {
  it('when a message is processed, then its line is at info, and LOG_LEVEL=warn drops it', () => {
    const info = capture('info');
    endMessageTelemetry(startMessageTelemetry(record, 'unit'), 'processed');
    expect(info).toEqual([expect.objectContaining({ level: 30, msg: 'message handled', outcome: 'processed' })]);
    const warn = capture('warn');
    endMessageTelemetry(startMessageTelemetry(record, 'unit'), 'processed');
    expect(warn).toEqual([]);
  });

  it('when a message is dead-lettered or fails, then its line is at warn or error, so LOG_LEVEL=warn keeps it', () => {
    const lines = capture('warn');
    endMessageTelemetry(startMessageTelemetry(record, 'unit'), 'dead-lettered');
    endMessageTelemetry(startMessageTelemetry(record, 'unit'), 'failed', new Error('database unreachable'));
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'message handled', outcome: 'dead-lettered' }),
      expect.objectContaining({ level: 50, msg: 'message handled', outcome: 'failed', error: 'database unreachable' }),
    ]);
  });
});
