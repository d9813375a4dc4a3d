import { describe, expect, it } from '@jest/globals';
import { appTracer, startTracing } from './tracing.js';
import { contextFromTraceparent, formatTraceparent } from './trace-context.js';

// An endpoint nothing listens on: no span below is ended, so nothing is ever sent to it.
await startTracing({ serviceName: 'unit', otlpEndpoint: 'http://127.0.0.1:9', samplePercent: 0 });

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('trace sampling with an exporter (OTEL_TRACES_SAMPLE_PERCENT)', () => {
  it('when a new trace starts at 0 percent, then its span records nothing but still has ids, and says not sampled downstream', () => {
    const span = appTracer().startSpan('root', {}, contextFromTraceparent(undefined));
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(formatTraceparent(span.spanContext())).toMatch(/-00$/);
  });

  it('when the caller sampled the trace, then the span is recorded whatever the percentage, so the trace stays whole', () => {
    const span = appTracer().startSpan('child', {}, contextFromTraceparent(`00-${TRACE_ID}-${PARENT_ID}-01`));
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
  });

  it('when the caller did not sample the trace, then the span is not recorded either', () => {
    const span = appTracer().startSpan('child', {}, contextFromTraceparent(`00-${TRACE_ID}-${PARENT_ID}-00`));
    expect(span.isRecording()).toBe(false);
  });
});
