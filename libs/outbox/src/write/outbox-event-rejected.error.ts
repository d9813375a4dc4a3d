import { CodedError } from '@libs/envelope';
import type { OutboxEvent } from './outbox.event.js';

/**
 * Thrown by {@link OutboxWriter.add} when an event's payload violates its message declaration. It
 * fails the producing transaction, so the state change that caused the event rolls back with it:
 * a message no consumer can accept is never stored, never published, never dead-lettered somewhere else.
 * (Its topic comes from the same declaration, so it cannot land on a topic whose consumers do not
 * accept it.)
 */
export class OutboxEventRejectedError extends CodedError<'OUTBOX.CONTRACT_VIOLATION'> {
  constructor(
    readonly event: Pick<OutboxEvent, 'message' | 'aggregateId'>,
    readonly problems: string[],
  ) {
    // The code is for logs: to a client it is an internal error (a bug in the producer, not in the request).
    super(
      'OUTBOX.CONTRACT_VIOLATION',
      `${event.message.type} for ${event.aggregateId} on ${event.message.topic} violates its contract: ${problems.join('; ')}`,
    );
  }
}
