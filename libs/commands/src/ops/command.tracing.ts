import { appTracer, contextFromTraceparent, endWithError, formatTraceparent, SpanKind, spanContextOf } from '@libs/telemetry';
import type { DueCommand } from '../dispatch/command.statements.js';

type Span = ReturnType<ReturnType<typeof appTracer>['startSpan']>;

/** A CLIENT span of one call to the partner, and its context as the request's `traceparent`. */
export interface CallSpan {
  readonly span: Span;
  readonly traceparent: string | undefined;
}

/**
 * The span of one command's call, continuing the trace of the transaction that wrote the command:
 * its context goes out as the request's `traceparent`, so the partner's server span is its child.
 */
export function startCommandSpan(command: DueCommand): CallSpan {
  const span = appTracer().startSpan(
    `POST ${command.path}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': 'POST', 'command.id': command.id, 'command.attempt': command.attempts + 1 },
    },
    contextFromTraceparent(command.traceparent ?? undefined),
  );
  return { span, traceparent: formatTraceparent(span.spanContext()) };
}

/** One span for a request that carries several commands: in the trace of the first, linked to the others'. */
export function startBatchSpan(path: string, commands: readonly DueCommand[]): CallSpan {
  const span = appTracer().startSpan(
    `POST ${path}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': 'POST', 'command.count': commands.length },
      links: commands.flatMap((command) => {
        const context = spanContextOf(command.traceparent ?? undefined);
        return context ? [{ context }] : [];
      }),
    },
    contextFromTraceparent(commands[0].traceparent ?? undefined),
  );
  return { span, traceparent: formatTraceparent(span.spanContext()) };
}

/** Ends the span with the call's outcome: an error unless the partner answered. */
export function endCallSpan({ span }: CallSpan, outcome: { kind: string; error?: string }): void {
  span.setAttribute('command.outcome', outcome.kind);
  if (outcome.error === undefined) span.end();
  else endWithError(span, new Error(outcome.error));
}
