import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { checkEnvelope } from './envelope-check.js';
import { Headers } from './headers.js';
import type { MessageDeclaration } from './message-declaration.js';

const ThingOrdered: MessageDeclaration = {
  topic: 'test.thing.v1',
  type: 'ThingOrdered',
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.strictObject({ thingId: z.string() }),
  aggregateIdField: 'thingId',
};

function record(ids: { key?: string | null; header?: string; payload?: string }) {
  const thingId = randomUUID();
  return {
    topic: ThingOrdered.topic,
    key: ids.key === undefined ? thingId : ids.key,
    value: { thingId: ids.payload ?? thingId },
    headers: {
      [Headers.messageId]: randomUUID(),
      [Headers.messageType]: 'ThingOrdered',
      [Headers.schemaVersion]: '1',
      [Headers.aggregateId]: ids.header ?? thingId,
    },
  };
}

describe('aggregate identity at the inbox', () => {
  it('when key, aggregate-id header and payload id agree, then the record is valid', () => {
    expect(checkEnvelope(record({}), [ThingOrdered], 'c')).toMatchObject({ valid: true });
  });

  it.each([
    ['the key names another aggregate', { key: randomUUID() }, 'record key does not equal payload.thingId'],
    ['the key is missing', { key: null }, 'record key does not equal payload.thingId'],
    ['the header names another aggregate', { header: randomUUID() }, 'header aggregate-id does not equal payload.thingId'],
  ])('when %s, then the reason is AGGREGATE_MISMATCH', (_case, ids, error) => {
    expect(checkEnvelope(record(ids), [ThingOrdered], 'c')).toEqual({ valid: false, reason: 'AGGREGATE_MISMATCH', error });
  });

  it('when the declaration names no aggregate id field, then nothing is compared', () => {
    const { aggregateIdField: _, ...unchecked } = ThingOrdered;
    expect(checkEnvelope(record({ key: 'anything' }), [unchecked], 'c')).toMatchObject({ valid: true });
  });

  it('when a record is a placeholder for a batch the consumer refused to inflate, then the reason is INFLATION_LIMIT', () => {
    const placeholder = {
      topic: 't',
      key: null,
      value: null,
      headers: { [Headers.inflationRefused]: 'compressed 120 bytes inflate past 64 bytes' },
    };
    expect(checkEnvelope(placeholder, [ThingOrdered], 'c')).toMatchObject({ valid: false, reason: 'INFLATION_LIMIT' });
  });
});
