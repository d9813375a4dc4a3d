import { describe, expect, it } from '@jest/globals';
import { codePointLength, RejectionCodes, ReservationLimits } from '@libs/contracts';
import { rejectionText } from './rejection-text.js';

describe('rejectionText', () => {
  it("when inventory rejects, then the customer reads orders' own words for the code, never the text on the wire", () => {
    expect(rejectionText({ reasonCode: RejectionCodes.ORDER_CANCELLED })).toBe('The order was cancelled before it could be reserved');
    expect(rejectionText({ reasonCode: RejectionCodes.INSUFFICIENT_STOCK, skus: ['SKU-CHERRY'] })).toBe('Not enough stock: SKU-CHERRY');
    expect(rejectionText({ reasonCode: RejectionCodes.UNKNOWN_SKU, skus: ['SKU-A', 'SKU-B'] })).toBe(
      'Some items are not sold: SKU-A, SKU-B',
    );
  });

  it('when the answer names the most SKUs of the longest length, then the text stays within the reason limit', () => {
    const skus = Array.from({ length: 50 }, (_, index) => `SKU-${String(index).padStart(2, '0')}-${'X'.repeat(57)}`);
    const text = rejectionText({ reasonCode: RejectionCodes.UNKNOWN_SKU, skus });
    expect(codePointLength(text)).toBeLessThanOrEqual(ReservationLimits.reasonMaxLength);
    expect(text).toMatch(/ and \d+ more$/);
  });

  it('when every rejection code is given, then each has a text of its own', () => {
    const texts = Object.values(RejectionCodes).map((reasonCode) => rejectionText({ reasonCode }));
    expect(new Set(texts).size).toBe(Object.values(RejectionCodes).length);
  });
});
