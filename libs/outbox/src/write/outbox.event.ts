import type { MessageDeclaration } from '@libs/envelope';

/** What a use case hands to {@link OutboxWriter.add}. */
export interface OutboxEvent<P = unknown> {
  /**
   * The declaration of the message (from the domain's contracts): it is published on its topic,
   * its type and schema version go into the headers, and the payload is validated against its
   * schema before the insert.
   */
  message: MessageDeclaration<P>;
  aggregateType: string;
  aggregateId: string;
  payload: P;
  /** Kafka key; defaults to the aggregate id so an aggregate's events share a partition. */
  key?: string;
  /** The request or message chain this event belongs to; defaults to the aggregate id. */
  correlationId?: string;
  /** The message that caused this event, if any. */
  causationId?: string;
  /** W3C trace context to continue; defaults to the active span's, else a new trace is started. */
  traceparent?: string;
  occurredAt?: Date;
}
