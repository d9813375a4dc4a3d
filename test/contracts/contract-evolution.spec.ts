import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { buildAsyncApiDocument, type JsonSchema } from '../../scripts/asyncapi-document.js';
import { type AsyncApiContracts, contractBreaks, describeBreaks, WHAT_TO_DO } from '../../scripts/contract-compatibility.js';

/**
 * The contracts of the last release (contracts/released/asyncapi.json, written by
 * `npm run contracts:release`) against the ones the code declares now. A change that a consumer of
 * the released contract, or a record it wrote (retained, replayed from a dead-letter topic), would
 * not survive fails here with what broke and what to do instead (docs/contracts.md).
 */
const released = JSON.parse(readFileSync(new URL('../../contracts/released/asyncapi.json', import.meta.url), 'utf8')) as AsyncApiContracts;
const current = () => buildAsyncApiDocument() as unknown as AsyncApiContracts;

/** OrderCreated's payload schema in `document`, to change in place. */
const orderCreatedPayload = (document: AsyncApiContracts) =>
  document.components.messages.OrderCreated.payload as JsonSchema & {
    properties: Record<string, JsonSchema>;
    required: string[];
  };

/** The worked example of docs/contracts.md: orders adds an optional gift message to OrderCreated. */
function withOptionalGiftMessage(): AsyncApiContracts {
  const document = current();
  orderCreatedPayload(document).properties.giftMessage = { type: 'string', minLength: 1, maxLength: 200 };
  return document;
}

describe('contract evolution against the released contracts', () => {
  it('when the current contracts are compared with the released ones, then no released topic version is broken', () => {
    const breaks = contractBreaks(released, current());
    // The message, not only the count: on failure it says what broke and what to do instead.
    expect(breaks.length === 0 ? '' : describeBreaks(breaks)).toBe('');
  });

  it('when OrderCreated gains an optional field, then the change is compatible', () => {
    expect(contractBreaks(released, withOptionalGiftMessage())).toEqual([]);
  });

  it('when that optional field of OrderCreated becomes required on the same topic version, then the check fails saying what broke and what to do', () => {
    const before = withOptionalGiftMessage();
    const after = withOptionalGiftMessage();
    orderCreatedPayload(after).required.push('giftMessage');
    const breaks = contractBreaks(before, after);
    expect(breaks).toEqual([
      {
        topic: Topics.orders,
        message: 'OrderCreated',
        path: 'payload.giftMessage',
        what: 'was optional and became required; records written by the released contract may lack it',
      },
    ]);
    expect(describeBreaks(breaks)).toBe(
      [
        'Breaking change to a released topic version (contracts/released/asyncapi.json):',
        `- OrderCreated on ${Topics.orders}, payload.giftMessage: was optional and became required; records written by the released contract may lack it`,
        WHAT_TO_DO,
      ].join('\n'),
    );
    expect(WHAT_TO_DO).toMatch(/add an optional field.*new topic version \(e\.g\. orders\.order\.v2\)/);
  });

  it('when a required field is added, removed or made optional, or a limit changes, then each is a break naming the field', () => {
    const after = current();
    const payload = orderCreatedPayload(after);
    payload.properties.channel = { type: 'string' };
    payload.required.push('channel');
    payload.required.splice(payload.required.indexOf('customerId'), 1);
    delete payload.properties.totalCents;
    payload.required.splice(payload.required.indexOf('totalCents'), 1);
    const line = (payload.properties.items as { items: { properties: Record<string, JsonSchema> } }).items;
    line.properties.quantity = { ...line.properties.quantity, maximum: 500 };
    expect(contractBreaks(released, after).map((each) => `${each.path}: ${each.what.split(';')[0]}`)).toEqual([
      'payload.customerId: was required and became optional',
      'payload.items[].quantity: its constraints changed from {"maximum":1000,"minimum":1,"type":"integer"} to {"maximum":500,"minimum":1,"type":"integer"}',
      'payload.channel: added as a required field',
      'payload.totalCents: a required field was removed',
    ]);
  });

  it('when a payload stops being a tolerant reader, a schema version changes, a message type or a topic goes, then each is a break', () => {
    const after = current();
    orderCreatedPayload(after).additionalProperties = false;
    const headers = after.components.messages.OrderCancelled.headers as { properties: Record<string, JsonSchema> };
    headers.properties['schema-version'] = { ...headers.properties['schema-version'], enum: ['2'] };
    const reservations = Object.values(after.channels).find((channel) => channel.address === Topics.reservations)!;
    delete reservations.messages.StockReleased;
    const [dlq] = Object.entries(after.channels).find(([, channel]) => channel.address === `${Topics.orders}.dlq`)!;
    delete after.channels[dlq];
    expect(contractBreaks(released, after).map((each) => `${each.message} ${each.path}`)).toEqual([
      'OrderCreated payload',
      'OrderCancelled headers.schema-version',
      '* orders.order.v1.dlq',
      'StockReleased StockReleased',
    ]);
  });
});
