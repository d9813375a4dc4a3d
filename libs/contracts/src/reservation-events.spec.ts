import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { schemaProblems } from '@libs/envelope';
import { codePointLength } from './field-schemas.js';
import { rejectionReason, ReservationEvents, ReservationLimits } from './reservation-events.js';

describe('rejectionReason', () => {
  it('when the details fit, then all are listed', () => {
    expect(rejectionReason('Unknown SKU(s)', ['A', 'B'])).toBe('Unknown SKU(s): A, B');
  });

  it('when ten 64-character SKUs are unknown, then the reason fits the contract and counts the ones it leaves out', () => {
    const skus = Array.from({ length: 10 }, (_, index) => `${index}`.padEnd(64, 'X'));
    const reason = rejectionReason('Unknown SKU(s)', skus);
    expect(codePointLength(reason)).toBeLessThanOrEqual(ReservationLimits.reasonMaxLength);
    expect(reason).toMatch(/^Unknown SKU\(s\): 0X+, 1X+, .* and \d+ more$/);
    const listed = reason.split(', ').length;
    expect(reason.endsWith(` and ${10 - listed} more`)).toBe(true);
    const payload = { orderId: randomUUID(), reasonCode: 'INVENTORY.UNKNOWN_SKU', reason, rejectedAt: new Date().toISOString() };
    expect(schemaProblems(ReservationEvents.StockRejected.schema, payload, 'payload')).toEqual([]);
  });

  it('when any number of details of any length are given, then the reason never exceeds the limit', () => {
    for (const count of [0, 1, 2, 5, 50, 500]) {
      for (const width of [1, 64, 120, 499, 500, 800]) {
        const details = Array.from({ length: count }, (_, index) => `${index}${'😀'.repeat(width)}`);
        const reason = rejectionReason('Insufficient stock', details, 100);
        expect({ count, width, length: codePointLength(reason) <= 100, wellFormed: !/\p{Cs}/u.test(reason) }).toEqual({
          count,
          width,
          length: true,
          wellFormed: true,
        });
      }
    }
  });

  it('when not even one detail fits, then the reason says how many were left out', () => {
    expect(rejectionReason('Unknown SKU(s)', ['X'.repeat(200), 'Y'], 40)).toBe('Unknown SKU(s): 2 not listed');
  });
});
