import { describe, expect, it } from '@jest/globals';
import { loyaltyReversalCommand, reversalOperationId } from './loyalty-reversal.command.js';

const orderId = '0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b';

describe('loyalty reversal of a released reservation', () => {
  it("when the same order is released twice, then its operation id (the Idempotency-Key) is the same, and not the accrual's", () => {
    expect(reversalOperationId(orderId)).toBe('loyalty-reversal:0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b');
  });

  it('when the accrual credited points, then the command posts the same points to /reversals under the reversal key', () => {
    expect(loyaltyReversalCommand({ customerId: 'c-1', orderId, points: 25 })).toEqual({
      id: `loyalty-reversal:${orderId}`,
      path: '/reversals',
      body: { customerId: 'c-1', orderId, points: 25 },
    });
  });

  it('when the accrual credited nothing, then there is nothing to reverse', () => {
    expect(loyaltyReversalCommand({ customerId: 'c-1', orderId, points: 0 })).toBeUndefined();
  });

  it("when the reversal breaks loyalty's contract, then building it throws instead of parking it later", () => {
    expect(() => loyaltyReversalCommand({ customerId: 'c-1', orderId: 'not-a-uuid', points: 3 })).toThrow(
      'INVENTORY.INVALID_LOYALTY_COMMAND',
    );
  });
});
