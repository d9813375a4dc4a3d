import { describe, expect, it } from '@jest/globals';
import { AccrualLimits, AccrualRequestSchema, OrderLimits } from '@app/contracts';
import { schemaProblems } from '@app/envelope';
import { accrualOperationId, pointsFor } from '../../loyalty/loyalty-command.entity.js';
import { linesBySku } from './reserve-stock.service.js';

describe('linesBySku', () => {
  it('when an order repeats a SKU, then its quantities are summed into one line', () => {
    expect(linesBySku([{ sku: 'B', quantity: 1 }, { sku: 'A', quantity: 2 }, { sku: 'B', quantity: 3 }])).toEqual([
      { sku: 'A', quantity: 2 },
      { sku: 'B', quantity: 4 },
    ]);
  });

  it('when SKUs arrive in any order, then lines come sorted by SKU: every transaction locks stock rows in one global order', () => {
    expect(linesBySku([{ sku: 'SKU-C', quantity: 1 }, { sku: 'SKU-A', quantity: 1 }, { sku: 'SKU-B', quantity: 1 }]).map((line) => line.sku)).toEqual([
      'SKU-A',
      'SKU-B',
      'SKU-C',
    ]);
  });
});

describe('loyalty command of an order', () => {
  it('when the same order is seen twice, then its operation id (the Idempotency-Key) is the same', () => {
    expect(accrualOperationId('0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b')).toBe('loyalty-accrual:0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b');
  });

  it('when points are computed, then it is one per whole currency unit, rounded down', () => {
    expect([0, 99, 100, 2599].map(pointsFor)).toEqual([0, 0, 1, 25]);
  });
});

describe('loyalty points against loyalty limits', () => {
  it('when an order has the largest total the contract allows, then its points are within what loyalty accepts', () => {
    const points = pointsFor(OrderLimits.totalCentsMax);
    expect(schemaProblems(AccrualRequestSchema, { customerId: 'c', orderId: '0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b', points }, 'accrual')).toEqual([]);
    expect(points).toBe(AccrualLimits.pointsMax);
    // And it fits the int columns of loyalty_commands and accruals.
    expect(points).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
