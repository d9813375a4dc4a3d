import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { DeadLetterHeaders, Headers, Topics } from '@app/contracts';
import { payloadHash, validateEnvelope } from './envelope-validator.js';
import type { RawInboxMessage } from './inbox-envelope.js';

const orderId = randomUUID();
const orderCreated = {
  orderId,
  customerId: 'customer-1',
  items: [{ sku: 'SKU-1', quantity: 2, unitPriceCents: 150 }],
  totalCents: 300,
  createdAt: '2026-11-30T10:00:00.000Z',
};

/** A message as Nest hands it over: value already JSON-parsed, headers decoded to strings. */
function raw(overrides: Partial<RawInboxMessage> & { headerChanges?: Record<string, string | undefined> } = {}): RawInboxMessage {
  const headers: Record<string, unknown> = {
    [Headers.messageId]: randomUUID(),
    [Headers.messageType]: 'OrderCreated',
    [Headers.schemaVersion]: '1',
  };
  for (const [name, value] of Object.entries(overrides.headerChanges ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { topic: Topics.orders, partition: 0, offset: '7', key: orderId, value: orderCreated, headers, ...overrides };
}

describe('validateEnvelope', () => {
  it('when the message matches its contract, then it returns the envelope with a payload hash', () => {
    const message = raw();
    const check = validateEnvelope(message);
    expect(check).toMatchObject({
      valid: true,
      envelope: { messageId: message.headers[Headers.messageId], messageType: 'OrderCreated', schemaVersion: 1, payload: orderCreated },
    });
    expect(check.valid && check.envelope.payloadHash).toBe(payloadHash(orderCreated));
  });

  it('when the value is a string that is not JSON, then the reason is NOT_JSON', () => {
    expect(validateEnvelope(raw({ value: 'definitely { not json' }))).toMatchObject({ valid: false, reason: 'NOT_JSON' });
  });

  it('when the value arrives as an unparsed JSON Buffer, then it is parsed and accepted', () => {
    expect(validateEnvelope(raw({ value: Buffer.from(JSON.stringify(orderCreated)) }))).toMatchObject({ valid: true });
  });

  it.each([
    ['missing', undefined],
    ['not a UUID', 'message-1'],
  ])('when the message-id header is %s, then the reason is MISSING_MESSAGE_ID', (_case, value) => {
    expect(validateEnvelope(raw({ headerChanges: { [Headers.messageId]: value } }))).toMatchObject({
      valid: false,
      reason: 'MISSING_MESSAGE_ID',
    });
  });

  it('when the type is not catalogued on this topic, then the reason is UNKNOWN_TYPE', () => {
    // StockReserved is a real type, but of another topic.
    expect(validateEnvelope(raw({ headerChanges: { [Headers.messageType]: 'StockReserved' } }))).toMatchObject({
      valid: false,
      reason: 'UNKNOWN_TYPE',
    });
  });

  it('when the schema version is not the catalogued one, then the reason is UNSUPPORTED_SCHEMA_VERSION', () => {
    expect(validateEnvelope(raw({ headerChanges: { [Headers.schemaVersion]: '2' } }))).toMatchObject({
      valid: false,
      reason: 'UNSUPPORTED_SCHEMA_VERSION',
    });
  });

  it('when the payload breaks the schema, then the reason is SCHEMA_VIOLATION and the error names the fields', () => {
    const check = validateEnvelope(raw({ value: { ...orderCreated, items: [{ sku: 'bad sku', quantity: 0, unitPriceCents: 1 }], extra: 1 } }));
    expect(check).toMatchObject({ valid: false, reason: 'SCHEMA_VIOLATION' });
    const error = check.valid ? '' : check.error;
    expect(error).toContain('payload.items[0].sku');
    expect(error).toContain('payload.items[0].quantity');
    expect(error).toContain('payload.extra is not allowed');
  });

  it('when two payloads differ only in key order, then their hashes are equal; when a value differs, they are not', () => {
    const reordered = Object.fromEntries(Object.entries(orderCreated).reverse());
    expect(payloadHash(reordered)).toBe(payloadHash(orderCreated));
    expect(payloadHash({ ...orderCreated, totalCents: 301 })).not.toBe(payloadHash(orderCreated));
  });

  it('when dead-letter headers are named, then they are the documented ones', () => {
    expect(Object.values(DeadLetterHeaders)).toEqual(
      expect.arrayContaining(['dlq-reason', 'dlq-error', 'dlq-attempts', 'dlq-consumer', 'dlq-original-topic', 'dlq-original-partition', 'dlq-original-offset']),
    );
  });
});
