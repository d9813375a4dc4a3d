import {
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type SpanContext,
  trace,
  TraceFlags,
} from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of a span context; undefined when it is not valid (no active span). */
export function formatTraceparent(spanContext: SpanContext | undefined): string | undefined {
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  // A bit test on a number: traceFlags is a bit field, not one enum member.
  const flags = (spanContext.traceFlags & Number(TraceFlags.SAMPLED)) !== 0 ? '01' : '00';
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** The active span's W3C context (the one an event written now belongs to), if any. */
export function currentTraceparent(): string | undefined {
  return formatTraceparent(trace.getActiveSpan()?.spanContext());
}

/** The active trace id, for log lines; undefined outside any span. */
export function currentTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** The trace id of a `traceparent` header value, when it is well formed. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  return traceparent ? TRACEPARENT.exec(traceparent)?.[1] : undefined;
}

/**
 * A context whose parent is the remote span named by `traceparent` (an HTTP or Kafka header), or
 * the root context when it is absent or malformed: the span started in it then begins a new trace.
 */
export function contextFromTraceparent(traceparent: string | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The remote span context of a `traceparent`, for span links; undefined when malformed. */
export function spanContextOf(traceparent: string | undefined): SpanContext | undefined {
  return trace.getSpanContext(contextFromTraceparent(traceparent));
}

/** Runs `fn` with `ctx` active (so the outbox writer and log lines see its span). */
export function withContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}
