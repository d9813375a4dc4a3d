import { describe, expect, it } from '@jest/globals';
import { linesBySku } from './reserve-stock.service.js';

describe('linesBySku', () => {
  it('when an order repeats a SKU, then its quantities are summed into one line', () => {
    expect(
      linesBySku([
        { sku: 'B', quantity: 1 },
        { sku: 'A', quantity: 2 },
        { sku: 'B', quantity: 3 },
      ]),
    ).toEqual([
      { sku: 'A', quantity: 2 },
      { sku: 'B', quantity: 4 },
    ]);
  });

  it('when SKUs arrive in any order, then lines come sorted by SKU: every transaction locks stock rows in one global order', () => {
    expect(
      linesBySku([
        { sku: 'SKU-C', quantity: 1 },
        { sku: 'SKU-A', quantity: 1 },
        { sku: 'SKU-B', quantity: 1 },
      ]).map((line) => line.sku),
    ).toEqual(['SKU-A', 'SKU-B', 'SKU-C']);
  });
});
