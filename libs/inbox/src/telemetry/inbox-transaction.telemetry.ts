import type { Span } from '@opentelemetry/api';
import type { InboxPart } from '../core/inbox.batch.js';
import type { InboxEnvelope, RawInboxMessage } from '../envelope/inbox.envelope.js';
import type { InboxMetrics } from './inbox.metrics.js';
import {
  abandonMessageTelemetry,
  bindMessageTelemetry,
  endMessageTelemetry,
  inMessageScopeOf,
  type MessageTelemetry,
  startBatchSpan,
  startMessageTelemetry,
} from './inbox.telemetry.js';

/**
 * The spans, log lines and timing of one inbox transaction, kept out of its steps: a span per
 * message (continuing its producer's trace), a span per partition when the transaction holds
 * several records, and its duration (`inbox_handler_duration_seconds` for one record,
 * `inbox_batch_duration_seconds` for more).
 */
export class InboxTelemetry {
  /** The records of every part, in order. */
  readonly records: readonly RawInboxMessage[];
  private readonly messages: Map<RawInboxMessage, MessageTelemetry>;
  private readonly spans: Span[];
  private readonly endTimer: () => void;

  constructor(
    private readonly parts: readonly InboxPart[],
    consumer: string,
    metrics: InboxMetrics,
  ) {
    this.records = parts.flatMap((part) => part.records);
    this.messages = new Map(this.records.map((record) => [record, startMessageTelemetry(record, consumer)]));
    const single = this.records.length === 1;
    this.spans = single
      ? []
      : parts.map(({ batch, records }) =>
          startBatchSpan(
            batch.topic,
            batch.partition,
            consumer,
            records.map((record) => this.messages.get(record)!),
          ),
        );
    this.endTimer = (single ? metrics.handlerDuration : metrics.batchDuration).startTimer({ consumer });
  }

  /** Ties a valid record's envelope to its message telemetry, so a handler can enter its scope ({@link inMessageScopeOf}). */
  bind(record: RawInboxMessage, envelope: InboxEnvelope): void {
    bindMessageTelemetry(envelope, this.messages.get(record)!);
  }

  /** Runs a handler call: one message runs in its own scope, so a handler writing with the active span needs nothing more. */
  inScopeOfRun<T>(envelopes: readonly InboxEnvelope[], fn: () => T): T {
    return envelopes.length === 1 ? inMessageScopeOf(envelopes[0], fn) : fn();
  }

  /** The transaction ended (committed or not): its timing and partition spans. */
  end(): void {
    this.endTimer();
    for (const span of this.spans) span.end();
  }

  /** The record's outcome: its span ends and its "message handled" line is written. */
  ended(record: RawInboxMessage, outcome: string, error?: unknown): void {
    endMessageTelemetry(this.messages.get(record)!, outcome, error);
  }

  /** Nothing ran (the inbox could not write): every message ends as failed. */
  failed(error: unknown): void {
    for (const message of this.messages.values()) endMessageTelemetry(message, 'failed', error);
  }

  /** The transaction rolled back and its records will be replayed, each with a span of its own. */
  abandon(reason: string): void {
    for (const message of this.messages.values()) abandonMessageTelemetry(message, reason);
  }

  /** Where the records came from, for a log line: `3 on orders.order.v1[0], 1 on orders.order.v1[2]`. */
  where(): string {
    return this.parts.map(({ batch, records }) => `${records.length} on ${batch.topic}[${batch.partition}]`).join(', ');
  }
}
