import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { checkEnvelope } from './envelope-check.js';
import { DeadLetterHeaders, Headers } from './headers.js';
import type { MessageDeclaration } from './message-declaration.js';
import { payloadHash } from './payload-hash.js';

// Declarations of this test only: the envelope knows no domain message.
const line = z.strictObject({ sku: z.string().regex(/^[A-Z0-9-]+$/, { error: 'has an invalid format' }), quantity: z.int().min(1) });
const ThingOrdered: MessageDeclaration = {
  topic: 'test.thing.v1',
  type: 'ThingOrdered',
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.strictObject({ thingId: z.string(), items: z.array(line) }),
};
const ThingCancelled: MessageDeclaration = {
  topic: 'test.thing.v1',
  type: 'ThingCancelled',
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.strictObject({ thingId: z.string() }),
};
const accepts = [ThingOrdered, ThingCancelled];

const thingOrdered = { thingId: 'thing-1', items: [{ sku: 'SKU-1', quantity: 2 }] };

/** A message as Nest hands it over: value already JSON-parsed, headers decoded to strings. */
function message(overrides: { value?: unknown; headerChanges?: Record<string, string | undefined> } = {}) {
  const headers: Record<string, unknown> = {
    [Headers.messageId]: randomUUID(),
    [Headers.messageType]: 'ThingOrdered',
    [Headers.schemaVersion]: '1',
  };
  for (const [name, value] of Object.entries(overrides.headerChanges ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { value: 'value' in overrides ? overrides.value : thingOrdered, headers };
}

describe('checkEnvelope', () => {
  it('when the message matches an accepted declaration, then it returns the message and its declaration', () => {
    const raw = message();
    expect(checkEnvelope(raw, accepts, 'test.consumer')).toEqual({
      valid: true,
      message: {
        messageId: raw.headers[Headers.messageId],
        messageType: 'ThingOrdered',
        schemaVersion: 1,
        payload: thingOrdered,
        headers: raw.headers,
        declaration: ThingOrdered,
      },
    });
  });

  it('when the value is a string that is not JSON, then the reason is NOT_JSON', () => {
    expect(checkEnvelope(message({ value: 'definitely { not json' }), accepts, 'c')).toMatchObject({ valid: false, reason: 'NOT_JSON' });
  });

  it('when the value arrives as an unparsed JSON Buffer, then it is parsed and accepted', () => {
    expect(checkEnvelope(message({ value: Buffer.from(JSON.stringify(thingOrdered)) }), accepts, 'c')).toMatchObject({ valid: true });
  });

  it('when a header arrives as a Buffer, then it is read as text', () => {
    const id = randomUUID();
    const raw = message();
    raw.headers[Headers.messageId] = Buffer.from(id);
    expect(checkEnvelope(raw, accepts, 'c')).toMatchObject({ valid: true, message: { messageId: id } });
  });

  it.each([
    ['missing', undefined],
    ['not a UUID', 'message-1'],
  ])('when the message-id header is %s, then the reason is MISSING_MESSAGE_ID', (_case, value) => {
    expect(checkEnvelope(message({ headerChanges: { [Headers.messageId]: value } }), accepts, 'c')).toMatchObject({
      valid: false,
      reason: 'MISSING_MESSAGE_ID',
    });
  });

  it('when the type is not one the consumer accepts, then the reason is UNKNOWN_TYPE and the error names the consumer and what it accepts', () => {
    expect(checkEnvelope(message({ headerChanges: { [Headers.messageType]: 'ThingShipped' } }), accepts, 'test.consumer')).toEqual({
      valid: false,
      reason: 'UNKNOWN_TYPE',
      error: 'message type "ThingShipped" is not one test.consumer accepts (ThingOrdered, ThingCancelled)',
    });
    // The same message, valid for a consumer that accepts only the other type.
    expect(checkEnvelope(message(), [ThingCancelled], 'c')).toMatchObject({ valid: false, reason: 'UNKNOWN_TYPE' });
    expect(checkEnvelope(message({ headerChanges: { [Headers.messageType]: undefined } }), accepts, 'c')).toMatchObject({
      valid: false,
      reason: 'UNKNOWN_TYPE',
    });
  });

  it('when the schema version is not the declared one, then the reason is UNSUPPORTED_SCHEMA_VERSION', () => {
    expect(checkEnvelope(message({ headerChanges: { [Headers.schemaVersion]: '2' } }), accepts, 'c')).toMatchObject({
      valid: false,
      reason: 'UNSUPPORTED_SCHEMA_VERSION',
    });
  });

  it('when the payload breaks the schema, then the reason is SCHEMA_VIOLATION and the error names the fields', () => {
    const check = checkEnvelope(message({ value: { ...thingOrdered, items: [{ sku: 'bad sku', quantity: 0 }], extra: 1 } }), accepts, 'c');
    expect(check).toMatchObject({ valid: false, reason: 'SCHEMA_VIOLATION' });
    const error = check.valid ? '' : check.error;
    expect(error).toContain('payload.items[0].sku has an invalid format');
    expect(error).toContain('payload.items[0].quantity');
    expect(error).toContain('extra');
  });

  it('when two payloads differ only in key order, then their hashes are equal; when a value differs, they are not', () => {
    const reordered = Object.fromEntries(Object.entries(thingOrdered).reverse());
    expect(payloadHash(reordered)).toBe(payloadHash(thingOrdered));
    expect(payloadHash({ ...thingOrdered, thingId: 'thing-2' })).not.toBe(payloadHash(thingOrdered));
  });

  it('when dead-letter headers are named, then they are the documented ones', () => {
    expect(Object.values(DeadLetterHeaders)).toEqual(
      expect.arrayContaining([
        'dlq-reason',
        'dlq-error',
        'dlq-attempts',
        'dlq-consumer',
        'dlq-original-topic',
        'dlq-original-partition',
        'dlq-original-offset',
      ]),
    );
  });
});
