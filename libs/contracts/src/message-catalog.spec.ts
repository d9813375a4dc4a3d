import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { messageProblems } from './message-catalog.js';
import { Topics } from './topics.js';

const cancelled = { orderId: randomUUID(), customerId: 'c', cancelledAt: new Date().toISOString() };

describe('messageProblems (the producer side of the consumer contract)', () => {
  it('when a message matches its catalog entry, then there is no problem', () => {
    expect(messageProblems({ topic: Topics.orders, messageType: 'OrderCancelled', schemaVersion: 1, payload: cancelled })).toEqual([]);
  });

  it('when a payload field violates the contract, then the problem names the field', () => {
    const payload = { ...cancelled, customerId: 'c'.repeat(65) };
    expect(messageProblems({ topic: Topics.orders, messageType: 'OrderCancelled', schemaVersion: 1, payload })).toEqual([
      'payload.customerId must be at most 64 characters (Unicode code points)',
    ]);
  });

  it('when the type is not known on the topic or the schema version differs, then that is the problem', () => {
    expect(messageProblems({ topic: Topics.reservations, messageType: 'OrderCancelled', schemaVersion: 1, payload: cancelled })).toEqual([
      `message type "OrderCancelled" is not known on ${Topics.reservations}`,
    ]);
    expect(messageProblems({ topic: Topics.orders, messageType: 'OrderCancelled', schemaVersion: 2, payload: cancelled })).toEqual([
      'OrderCancelled schema version 2 is not 1',
    ]);
  });
});
