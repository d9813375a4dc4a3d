import type { Span } from '@opentelemetry/api';
import { Headers } from '@libs/envelope';
import { appTracer, contextFromTraceparent, endWithError, formatTraceparent, isExportingSpans, SpanKind } from '@libs/telemetry';
import type { OutboxMessage } from '../storage/outbox-message.entity.js';
import type { PublishOutcome } from '../transport/outbox.publisher.js';

/**
 * One PRODUCER span per row, child of the context the writer stored with it (the request or
 * message that wrote the row, perhaps long ago), and the record's `traceparent` becomes the
 * producer span's: the consumer's span is then its child. Only the in-memory copy changes; the
 * stored row keeps the writer's context, so a retry continues the same trace with a new span.
 * Not done when spans are not exported: the stored context then goes out unchanged, at no cost.
 */
function startPublishSpans(rows: OutboxMessage[]): Map<OutboxMessage, Span> | undefined {
  if (!isExportingSpans()) return undefined;
  const spans = new Map<OutboxMessage, Span>();
  for (const row of rows) {
    const span = appTracer().startSpan(
      `${row.topic} publish`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': row.topic,
          'messaging.message.id': row.id,
          'messaging.kafka.message.key': row.key,
        },
      },
      contextFromTraceparent(row.headers[Headers.traceparent]),
    );
    const traceparent = formatTraceparent(span.spanContext());
    if (traceparent) row.headers = { ...row.headers, [Headers.traceparent]: traceparent };
    spans.set(row, span);
  }
  return spans;
}

/** Ends the spans: acknowledged rows fine, failed ones with their error. */
function endPublishSpans(spans: Map<OutboxMessage, Span> | undefined, outcome: PublishOutcome): void {
  if (!spans) return;
  for (const row of outcome.published) spans.get(row)?.end();
  for (const { row, error } of outcome.failed) {
    const span = spans.get(row);
    if (span) endWithError(span, error);
  }
}

/** Runs `publish` inside the rows' PRODUCER spans, ended with its outcome (or its error, for every row). */
export async function withPublishSpans(rows: OutboxMessage[], publish: () => Promise<PublishOutcome>): Promise<PublishOutcome> {
  const spans = startPublishSpans(rows);
  try {
    const outcome = await publish();
    endPublishSpans(spans, outcome);
    return outcome;
  } catch (error) {
    endPublishSpans(spans, { published: [], failed: rows.map((row) => ({ row, error: error as Error })) });
    throw error;
  }
}
