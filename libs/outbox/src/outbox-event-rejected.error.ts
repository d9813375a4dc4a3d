import type { OutboxEvent } from './outbox-event.js';

/**
 * Thrown by {@link OutboxWriter.add} when an event's payload violates its message declaration. It
 * fails the producing transaction, so the state change that caused the event rolls back with it:
 * a message no consumer can accept is never stored, never published, never dead-lettered somewhere else.
 */
export class OutboxEventRejectedError extends Error {
  /** Stable code, for problem responses and logs. */
  readonly code = 'OUTBOX.CONTRACT_VIOLATION';

  constructor(
    readonly event: Pick<OutboxEvent, 'topic' | 'message' | 'aggregateId'>,
    readonly problems: string[],
  ) {
    super(`${event.message.type} for ${event.aggregateId} on ${event.topic} violates its contract: ${problems.join('; ')}`);
    this.name = 'OutboxEventRejectedError';
  }
}
