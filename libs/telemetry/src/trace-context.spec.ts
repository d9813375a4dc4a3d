import { describe, expect, it } from '@jest/globals';
import { trace, TraceFlags } from '@opentelemetry/api';
import { appTracer, startTracing } from './tracing.js';
import { contextFromTraceparent, currentTraceId, currentTraceparent, formatTraceparent, traceIdOf, withContext } from './trace-context.js';

// As the apps run without OTEL_EXPORTER_OTLP_ENDPOINT: context propagates, nothing is recorded.
await startTracing({ serviceName: 'unit', otlpEndpoint: '' });

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('trace context without an exporter', () => {
  it('when a span starts from an incoming traceparent, then it keeps the trace id, gets its own span id, records nothing, and is what an event written inside it stores', () => {
    const parent = contextFromTraceparent(`00-${TRACE_ID}-${PARENT_ID}-01`);
    const span = appTracer().startSpan('child', {}, parent);
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.spanContext().spanId).not.toBe(PARENT_ID);
    withContext(trace.setSpan(parent, span), () => {
      expect(currentTraceparent()).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-00`);
      expect(currentTraceId()).toBe(TRACE_ID);
    });
  });

  it('when no span is active, then there is no current traceparent (the writer then starts a trace)', () => {
    expect(currentTraceparent()).toBeUndefined();
    expect(currentTraceId()).toBeUndefined();
  });

  it('when the incoming traceparent is malformed or absent, then a span starts a new trace', () => {
    for (const header of ['garbage', `00-${TRACE_ID}-short-01`, undefined]) {
      const span = appTracer().startSpan('root', {}, contextFromTraceparent(header));
      expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    }
  });

  it('when a span context is formatted, then the sampled flag is kept and an invalid context gives nothing', () => {
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: TraceFlags.SAMPLED })).toBe(
      `00-${TRACE_ID}-${PARENT_ID}-01`,
    );
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: TraceFlags.NONE })).toBe(`00-${TRACE_ID}-${PARENT_ID}-00`);
    expect(formatTraceparent({ traceId: '0'.repeat(32), spanId: PARENT_ID, traceFlags: TraceFlags.SAMPLED })).toBeUndefined();
    expect(traceIdOf(`00-${TRACE_ID}-${PARENT_ID}-01`)).toBe(TRACE_ID);
    expect(traceIdOf('nonsense')).toBeUndefined();
  });
});
