import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { schemaProblems } from '@libs/envelope';
import { OrderEvents, OrderFields, type OrderLine, SKU_PATTERN } from './order-events.js';
import { OrderLimits } from './order-limits.js';

const created = (items: OrderLine[], customerId = 'customer') => ({
  orderId: randomUUID(),
  customerId,
  items,
  totalCents: items.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0),
  createdAt: new Date().toISOString(),
});
const validate = (payload: unknown) => schemaProblems(OrderEvents.OrderCreated.schema, payload, 'payload');

describe('OrderCreated contract', () => {
  it('when lines of one SKU sum to more than the per-SKU limit, then it names items (2 x 600 of one SKU)', () => {
    const problems = validate(
      created([
        { sku: 'A', quantity: 600, unitPriceCents: 1 },
        { sku: 'A', quantity: 600, unitPriceCents: 1 },
      ]),
    );
    expect(problems).toEqual(['payload.items hold 1200 units of A over its lines; at most 1000 units per SKU']);
  });

  it('when lines of one SKU sum exactly to the limit, then it is valid', () => {
    expect(
      validate(
        created([
          { sku: 'A', quantity: 400, unitPriceCents: 1 },
          { sku: 'A', quantity: 600, unitPriceCents: 1 },
        ]),
      ),
    ).toEqual([]);
  });

  it('when the total exceeds the order total limit, then it names the total (3 x 1000 x 100,000,000 cents)', () => {
    const line = (sku: string) => ({ sku, quantity: 1000, unitPriceCents: OrderLimits.unitPriceCentsMax });
    const problems = validate(created([line('A'), line('B'), line('C')]));
    expect(problems).toContain('payload.items total 300000000000 cents; an order total must be at most 1000000000 cents');
    expect(problems).toContain('payload.totalCents must be an integer from 0 to 1000000000');
  });

  it('when the total is exactly at the limit, then it is valid', () => {
    expect(validate(created([{ sku: 'A', quantity: 10, unitPriceCents: OrderLimits.unitPriceCentsMax }]))).toEqual([]);
  });

  it('when a unit price exceeds its limit, then the line names it', () => {
    expect(validate(created([{ sku: 'A', quantity: 1, unitPriceCents: OrderLimits.unitPriceCentsMax + 1 }]))).toEqual([
      'payload.items[0].unitPriceCents must be an integer from 0 to 100000000',
    ]);
  });

  it('when customerId is 64 emoji (128 UTF-16 units), then it is valid; 65 are not', () => {
    const line = { sku: 'A', quantity: 1, unitPriceCents: 1 };
    expect(validate(created([line], '🎉'.repeat(64)))).toEqual([]);
    expect(validate(created([line], '🎉'.repeat(65)))).toHaveLength(1);
  });

  it('when a SKU has the maximum length, then it matches; one more character does not', () => {
    expect(SKU_PATTERN.test('A'.repeat(OrderLimits.skuMaxLength))).toBe(true);
    expect(SKU_PATTERN.test('A'.repeat(OrderLimits.skuMaxLength + 1))).toBe(false);
  });
});

describe('OrderFields.lines (the list rules of a request, whose lines are validated one by one)', () => {
  const problems = (items: unknown) => schemaProblems(OrderFields.lines, items, 'items');

  it('when the lines break a rule over the list, then it names items; when a line itself is malformed, it leaves that to the line', () => {
    expect(problems([])).toEqual([`items must have 1 to ${OrderLimits.linesMax} entries`]);
    expect(problems({ sku: 'A' })).toEqual(['items must be an array']);
    expect(
      problems([
        { sku: 'A', quantity: 600, unitPriceCents: 1 },
        { sku: 'A', quantity: 600, unitPriceCents: 1 },
      ]),
    ).toEqual(['items hold 1200 units of A over its lines; at most 1000 units per SKU']);
    expect(problems([{ sku: 'bad sku', quantity: 0 }])).toEqual([]);
  });

  it('when request lines carry no price (orders prices them), then units per SKU are still summed and no total is checked', () => {
    expect(
      problems([
        { sku: 'A', quantity: 600 },
        { sku: 'A', quantity: 600 },
      ]),
    ).toEqual(['items hold 1200 units of A over its lines; at most 1000 units per SKU']);
    expect(problems([{ sku: 'A', quantity: 1000 }])).toEqual([]);
  });
});

describe('OrderCreated total (a forged total is never checked against its lines)', () => {
  it('when totalCents differs from the sum of the lines, then it names totalCents and the sum', () => {
    const order = created([{ sku: 'A', quantity: 2, unitPriceCents: 150 }]);
    expect(validate({ ...order, totalCents: 100_000_000 })).toEqual([
      'payload.totalCents must equal the sum of the lines (300), got 100000000',
    ]);
    expect(validate(order)).toEqual([]);
  });
});
