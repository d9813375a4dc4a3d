import { context, propagation, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';

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
}

/**
 * Installs the context manager, the W3C propagator and a tracer provider, once per process, before
 * the app is built. With an endpoint, spans are batched and exported over OTLP/HTTP (JSON). Without
 * one, every span is a non-recording span: it still gets its own span id and carries the trace id
 * on (log lines and `traceparent` headers stay correct), but records and exports nothing, so the
 * per-message cost is an id and an AsyncLocalStorage scope. The cost of that choice: a service
 * without an endpoint propagates the sampled flag as 00.
 */
export function startTracing(options: TracingOptions): { shutdown(): Promise<void> } {
  exporting = options.otlpEndpoint !== '';
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    sampler: exporting ? new ParentBasedSampler({ root: new AlwaysOnSampler() }) : new AlwaysOffSampler(),
    spanProcessors: exporting
      ? [
          new BatchSpanProcessor({
            exporter: new OTLPTraceExporter({ url: new URL('v1/traces', withSlash(options.otlpEndpoint)).href }),
            // A short delay: traces show up while a demo or a test is still looking.
            scheduledDelayMillis: 500,
          }),
        ]
      : [],
  });
  trace.setGlobalTracerProvider(provider);
  tracer = trace.getTracer(options.serviceName);
  return { shutdown: () => provider?.shutdown() ?? Promise.resolve() };
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
