import { describe, expect, it } from '@jest/globals';
import { accrualOperationId, loyaltyAccrualCommand } from './loyalty-accrual.command.js';

const orderId = '0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b';

describe('loyalty command of an order', () => {
  it('when the same order is seen twice, then its operation id (the Idempotency-Key) is the same', () => {
    expect(accrualOperationId(orderId)).toBe('loyalty-accrual:0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b');
  });

  it("when an order earns points, then the command posts them to /accruals under the order's operation id", () => {
    expect(loyaltyAccrualCommand({ orderId, customerId: 'c-1', totalCents: 2599 })).toEqual({
      id: `loyalty-accrual:${orderId}`,
      path: '/accruals',
      body: { customerId: 'c-1', orderId, points: 25 },
    });
  });

  it('when an order earns no points, then there is no command', () => {
    expect(loyaltyAccrualCommand({ orderId, customerId: 'c-1', totalCents: 99 })).toBeUndefined();
  });

  it("when the accrual breaks loyalty's contract, then building it throws instead of parking it later", () => {
    expect(() => loyaltyAccrualCommand({ orderId: 'not-a-uuid', customerId: 'c-1', totalCents: 100 })).toThrow(
      expect.objectContaining({ code: 'INVENTORY.INVALID_LOYALTY_COMMAND', message: expect.stringContaining('not-a-uuid') }),
    );
  });
});
