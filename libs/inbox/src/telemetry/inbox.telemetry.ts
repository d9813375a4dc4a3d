import { performance } from 'node:perf_hooks';
import { type Context, type Link, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { Headers, headerText } from '@libs/envelope';
import {
  appLogger,
  appTracer,
  contextFromTraceparent,
  endWithError,
  isExportingSpans,
  type LogFields,
  runWithLogFields,
  SpanKind,
  withContext,
} from '@libs/telemetry';
import type { InboxEnvelope, RawInboxMessage } from '../envelope/inbox.envelope.js';

/** The span, log fields and clock of one consumed message. */
export interface MessageTelemetry {
  readonly span: Span;
  readonly context: Context;
  readonly fields: LogFields;
  readonly record: RawInboxMessage;
  readonly started: number;
}

function header(record: RawInboxMessage, name: string): string | undefined {
  return headerText(record.headers?.[name]);
}

/**
 * Starts the CONSUMER span of one message, continuing the producer's trace from the record's
 * `traceparent` header, so every handled message has its own span, alone or in a batch.
 */
export function startMessageTelemetry(record: RawInboxMessage, consumer: string): MessageTelemetry {
  const fields: LogFields = {
    consumer,
    messageId: header(record, Headers.messageId),
    messageType: header(record, Headers.messageType),
    correlationId: header(record, Headers.correlationId),
    aggregateId: header(record, Headers.aggregateId),
  };
  const parent = contextFromTraceparent(header(record, Headers.traceparent));
  // Attributes only when spans are recorded: a non-recording span drops them anyway, and this
  // runs once per message (docs/decisions/0014-telemetry-at-its-cost.md).
  const span = appTracer().startSpan(
    `${record.topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: isExportingSpans()
        ? {
            'messaging.system': 'kafka',
            'messaging.operation.type': 'process',
            'messaging.destination.name': record.topic,
            'messaging.destination.partition.id': String(record.partition),
            'messaging.kafka.offset': Number(record.offset),
            'messaging.consumer.group.name': consumer,
            ...(fields.messageId ? { 'messaging.message.id': fields.messageId } : {}),
          }
        : undefined,
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span), fields, record, started: performance.now() };
}

/** Runs `fn` with the message's span active (the outbox writer stores it) and its log fields in scope. */
function inMessageScope<T>(message: MessageTelemetry, fn: () => T): T {
  return withContext(message.context, () => runWithLogFields(message.fields, fn));
}

/** The telemetry of each envelope being handled, so a set-based handler can enter one message's scope. */
const telemetryOfEnvelope = new WeakMap<InboxEnvelope, MessageTelemetry>();

/** Ties `envelope` to the telemetry of the message it came from. */
export function bindMessageTelemetry(envelope: InboxEnvelope, message: MessageTelemetry): void {
  telemetryOfEnvelope.set(envelope, message);
}

/**
 * Runs `fn` as part of handling `envelope`: its consumer span active (an outbox event or command
 * written inside continues the message's trace) and its log fields in scope (`annotateLog` adds to
 * its "message handled" line). A set-based handler calls it per message for what is per message;
 * outside the inbox (an envelope it did not produce) it just runs `fn`.
 */
export function inMessageScopeOf<T>(envelope: InboxEnvelope, fn: () => T): T {
  const message = telemetryOfEnvelope.get(envelope);
  return message ? inMessageScope(message, fn) : fn();
}

/**
 * Ends the message's span and writes its one line: outcome, where it came from, how long it took,
 * and the ids (message, correlation, order when the handler annotated it, trace). At info, except a
 * failure (error) and a dead letter (warn): `LOG_LEVEL=warn`, which drops the per-message lines to
 * save their CPU (docs/decisions/0014-telemetry-at-its-cost.md), must not drop those.
 */
export function endMessageTelemetry(message: MessageTelemetry, outcome: string, error?: unknown): void {
  message.span.setAttribute('inbox.outcome', outcome);
  if (error !== undefined) endWithError(message.span, error);
  else {
    if (outcome === 'dead-lettered') message.span.setStatus({ code: SpanStatusCode.ERROR, message: 'dead-lettered' });
    message.span.end();
  }
  const logger = appLogger();
  const level = error !== undefined ? 'error' : outcome === 'dead-lettered' ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const { record } = message;
  logger[level](
    {
      ...message.fields,
      traceId: message.span.spanContext().traceId,
      outcome,
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      durationMs: Math.round((performance.now() - message.started) * 10) / 10,
      ...(error !== undefined ? { error: (error as Error)?.message } : {}),
    },
    'message handled',
  );
}

/** Ends a message span that a batch gave up on (the message is then replayed alone, with a span of its own). */
export function abandonMessageTelemetry(message: MessageTelemetry, reason: string): void {
  message.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
  message.span.end();
}

/** A span for one batch transaction, linked to the span of every message it handles. */
export function startBatchSpan(topic: string, partition: number, consumer: string, messages: MessageTelemetry[]): Span {
  const links: Link[] = messages.map((message) => ({ context: message.span.spanContext() }));
  return appTracer().startSpan(`${topic} process batch`, {
    kind: SpanKind.CONSUMER,
    links,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.destination.name': topic,
      'messaging.destination.partition.id': String(partition),
      'messaging.batch.message_count': messages.length,
      'messaging.consumer.group.name': consumer,
    },
  });
}
