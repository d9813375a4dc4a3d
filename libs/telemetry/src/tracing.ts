import { context, propagation, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/*
 * Why explicit spans and no auto-instrumentation: the apps are ES modules (Nest 12 is ESM-only).
 * OpenTelemetry's Node instrumentations patch modules through require-in-the-middle, which never
 * sees an `import`; for ESM they need import-in-the-middle registered as a loader hook before the
 * first app module loads (`node --import ./register.mjs`, see opentelemetry-js doc/esm-support.md).
 * Every way the apps are started (npm start, tests spawning dist/, jest's VM modules, Docker) would
 * need that flag, and a missed one fails silently. More important, the spans that matter here are
 * not where the hooks are: the relay publishes rows written by OTHER requests, so a kafkajs
 * instrumentation (which injects its own producer context into every message it sends, see
 * opentelemetry-js-contrib#2236) would cut every trace at the outbox; the inbox
 * handles a batch of records in one transaction, which the kafkajs instrumentation sees as one
 * `eachBatch` call. So: @opentelemetry/api spans at the five points of the flow (HTTP server,
 * outbox producer, inbox consumer, loyalty client), a few lines each, with nothing to hook.
 */

let tracer: Tracer = trace.getTracer('app');
let exporting = false;
let provider: TracerProvider | undefined;

export interface TracingOptions {
  /** `service.name` of every span of this process (orders, inventory, loyalty). */
  serviceName: string;
  /** OTLP/HTTP base URL; empty: spans are not recorded, only their context propagates. */
  otlpEndpoint: string;
  /**
   * Percentage of new traces recorded and exported when an endpoint is set
   * (`OTEL_TRACES_SAMPLE_PERCENT`). Default 100. Parent-based: a request or message whose
   * `traceparent` says sampled is always recorded, one that says not sampled never is, so a trace
   * is whole or absent across the three services. Lowering it saves the recording and export of
   * every span of the traces left out (docs/decisions/0014-telemetry-at-its-cost.md); a trace left out still propagates its
   * ids, so log lines keep their trace id.
   */
  samplePercent?: number;
}

/**
 * Installs the context manager, the W3C propagator and a tracer provider, once per process, before
 * the app is built. With an endpoint, spans are sampled (parent-based, {@link TracingOptions.samplePercent}
 * of new traces), batched and exported over OTLP/HTTP (JSON). Without one, every span is a
 * non-recording span: it still gets its own span id and carries the trace id on (log lines and
 * `traceparent` headers stay correct), but records and exports nothing, so the per-message cost is
 * an id and an AsyncLocalStorage scope. The cost of that choice: a service without an endpoint
 * propagates the sampled flag as 00.
 *
 * The OTLP exporter module is imported only when an endpoint is set (about 4 MB of RSS a process
 * without export does not pay, docs/decisions/0014-telemetry-at-its-cost.md); without one, everything here runs before this
 * function's first `await`, so tracing is installed when it returns even if the caller does not wait.
 */
export async function startTracing(options: TracingOptions): Promise<{ shutdown(): Promise<void> }> {
  const spanProcessors = options.otlpEndpoint !== '' ? [await otlpExport(options.otlpEndpoint)] : [];
  exporting = spanProcessors.length > 0;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    sampler: exporting
      ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler((options.samplePercent ?? 100) / 100) })
      : new AlwaysOffSampler(),
    spanProcessors,
  });
  trace.setGlobalTracerProvider(provider);
  tracer = trace.getTracer(options.serviceName);
  return { shutdown: () => provider?.shutdown() ?? Promise.resolve() };
}

async function otlpExport(endpoint: string): Promise<SpanProcessor> {
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  return new BatchSpanProcessor({
    exporter: new OTLPTraceExporter({ url: new URL('v1/traces', withSlash(endpoint)).href }),
    // A short delay: traces show up while a demo or a test is still looking.
    scheduledDelayMillis: 500,
  });
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** True when spans are recorded and exported; false: only context propagates. */
export function isExportingSpans(): boolean {
  return exporting;
}

/** The tracer of this process (a no-op one until {@link startTracing} ran). */
export function appTracer(): Tracer {
  return tracer;
}

export { SpanKind };

/** Ends `span` with an error status naming `error`. */
export function endWithError(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
  span.end();
}

/** Flushes pending spans; for tests and shutdown. */
export async function flushSpans(): Promise<void> {
  await provider?.forceFlush();
}
