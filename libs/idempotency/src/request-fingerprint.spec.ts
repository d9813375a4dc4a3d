import { describe, expect, it } from '@jest/globals';
import { requestFingerprint } from './request-fingerprint.js';

describe('requestFingerprint', () => {
  const body = { customerId: 'c-1', items: [{ sku: 'A', quantity: 1, unitPriceCents: 100 }] };
  const fingerprint = requestFingerprint('POST', '/orders', body);

  it('when the same request comes again, with keys reordered or a lower-case method, then the fingerprint is the same', () => {
    expect(requestFingerprint('post', '/orders', { items: [{ unitPriceCents: 100, quantity: 1, sku: 'A' }], customerId: 'c-1' })).toBe(
      fingerprint,
    );
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['another method', () => requestFingerprint('PUT', '/orders', body)],
    ['another path', () => requestFingerprint('POST', '/orders/x', body)],
    ['another value', () => requestFingerprint('POST', '/orders', { ...body, customerId: 'c-2' })],
    [
      'another item order',
      () => requestFingerprint('POST', '/orders', { ...body, items: [...body.items, { sku: 'B', quantity: 1, unitPriceCents: 1 }] }),
    ],
    ['no body', () => requestFingerprint('POST', '/orders', undefined)],
  ])('when the request has %s, then the fingerprint differs', (_, other) => {
    expect(other()).not.toBe(fingerprint);
  });
});
