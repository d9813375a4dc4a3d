import { describe, expect, it } from '@jest/globals';
import { AccrualLimits, AccrualRequestSchema, OrderLimits } from '@libs/contracts';
import { schemaProblems } from '@libs/envelope';
import { pointsFor } from './points-for.js';

describe('pointsFor', () => {
  it('when points are computed, then it is one per whole currency unit, rounded down', () => {
    expect([0, 99, 100, 2599].map(pointsFor)).toEqual([0, 0, 1, 25]);
  });
});

describe('loyalty points against loyalty limits', () => {
  it('when an order has the largest total the contract allows, then its points are within what loyalty accepts', () => {
    const points = pointsFor(OrderLimits.totalCentsMax);
    expect(
      schemaProblems(AccrualRequestSchema, { customerId: 'c', orderId: '0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b', points }, 'accrual'),
    ).toEqual([]);
    expect(points).toBe(AccrualLimits.pointsMax);
    // And it fits the int columns of loyalty_commands and accruals.
    expect(points).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
