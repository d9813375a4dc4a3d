import type { OutboxEvent } from './outbox-event.js';

/** Injection token of the app's {@link OutboxEventValidator}. */
export const OUTBOX_EVENT_VALIDATOR = Symbol('OUTBOX_EVENT_VALIDATOR');

/**
 * The problems a consumer would find in `event` (empty: valid). The outbox knows the envelope, not
 * the domain, so the app supplies this: normally the same contract check its consumers' inbox
 * runs. {@link OutboxWriter.add} calls it before the insert.
 */
export type OutboxEventValidator = (event: OutboxEvent) => string[];

/**
 * Thrown by {@link OutboxWriter.add} when an event violates its contract. It fails the producing
 * transaction, so the state change that caused the event rolls back with it: a message no consumer
 * can accept is never stored, never published, never dead-lettered somewhere else.
 */
export class OutboxEventRejectedError extends Error {
  /** Stable code, for problem responses and logs. */
  readonly code = 'OUTBOX.CONTRACT_VIOLATION';

  constructor(
    readonly event: Pick<OutboxEvent, 'topic' | 'messageType' | 'aggregateId'>,
    readonly problems: string[],
  ) {
    super(`${event.messageType} for ${event.aggregateId} on ${event.topic} violates its contract: ${problems.join('; ')}`);
    this.name = 'OutboxEventRejectedError';
  }
}
