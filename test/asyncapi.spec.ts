import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import Ajv from 'ajv';
import { OrderLimits, oneOf, RejectionCodes, ReservationLimits, text, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers, jsonSchemaOf, schemaProblems } from '@libs/envelope';
import { messageCatalog } from '@tools/local-stack';
import { ASYNCAPI_PATH, buildAsyncApiDocument, type JsonSchema, renderAsyncApiDocument } from '../scripts/asyncapi-document.js';

// The schemas are checked by an independent JSON Schema implementation (ajv, draft-07, the dialect
// AsyncAPI's schema format extends), not by the code that wrote them.
const ajv = new Ajv({ allErrors: true });
const accepts = (schema: JsonSchema, value: unknown) => ajv.validate(schema, value) as boolean;

interface Document {
  info: { version: string };
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; channel: { $ref: string }; messages: { $ref: string }[] }>;
  components: { messages: Record<string, { payload: JsonSchema; headers: JsonSchema; bindings: { kafka: { key: JsonSchema } } }> };
}
const document = buildAsyncApiDocument() as unknown as Document;

const orderId = '0d7c0d1e-6a43-4c58-9d0e-8d1f6c1f2a3b';
const at = '2026-12-01T00:00:00.000Z';
const line = { sku: 'SKU-1', quantity: 1, unitPriceCents: 100 };

/** Per message type: a payload every consumer accepts, and one just past a declared limit. */
const samples: Record<string, { good: unknown; pastLimit: unknown }> = {
  OrderCreated: {
    good: { orderId, customerId: 'c-1', items: [line], totalCents: 100, createdAt: at },
    pastLimit: { orderId, customerId: 'c'.repeat(OrderLimits.customerIdMaxLength + 1), items: [line], totalCents: 100, createdAt: at },
  },
  OrderCancelled: {
    good: { orderId, customerId: 'c-1', cancelledAt: at },
    pastLimit: { orderId, customerId: 'c'.repeat(OrderLimits.customerIdMaxLength + 1), cancelledAt: at },
  },
  StockReserved: {
    good: { orderId, items: [{ sku: 'SKU-1', quantity: OrderLimits.quantityPerSkuMax }], reservedAt: at },
    pastLimit: { orderId, items: [{ sku: 'SKU-1', quantity: OrderLimits.quantityPerSkuMax + 1 }], reservedAt: at },
  },
  StockRejected: {
    good: { orderId, reasonCode: RejectionCodes.UNKNOWN_SKU, reason: 'r'.repeat(ReservationLimits.reasonMaxLength), rejectedAt: at },
    pastLimit: {
      orderId,
      reasonCode: RejectionCodes.UNKNOWN_SKU,
      reason: 'r'.repeat(ReservationLimits.reasonMaxLength + 1),
      rejectedAt: at,
    },
  },
  StockReleased: {
    good: { orderId, items: [], releasedAt: at },
    pastLimit: { orderId, items: Array.from({ length: OrderLimits.linesMax + 1 }, () => ({ sku: 'SKU-1', quantity: 1 })), releasedAt: at },
  },
};

const catalogTypes = Object.values(messageCatalog).flatMap((catalog) => Object.values(catalog));

describe('docs/asyncapi.json', () => {
  it('when a contract changes, then the committed document is regenerated (run `npm run asyncapi`)', () => {
    const committed = readFileSync(new URL(`../${ASYNCAPI_PATH}`, import.meta.url), 'utf8');
    // On failure Jest prints the diff; the fix is in the test name: run `npm run asyncapi`.
    expect(committed).toBe(renderAsyncApiDocument());
  });

  it("when read, then its version is package.json's", () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.info.version).toBe(version);
  });

  it('when a message type is in the catalog, then a channel with its topic lists it and both sides have an operation for it', () => {
    for (const [topic, catalog] of Object.entries(messageCatalog)) {
      const [channelId, channel] = Object.entries(document.channels).find(([, each]) => each.address === topic) ?? [];
      expect(channel).toBeDefined();
      expect(Object.keys(channel?.messages ?? {}).sort()).toEqual(Object.keys(catalog).sort());
      const actions = Object.values(document.operations)
        .filter((operation) => operation.channel.$ref === `#/channels/${channelId}`)
        .map((operation) => [operation.action, operation.messages.length]);
      expect(actions.sort()).toEqual([
        ['receive', Object.keys(catalog).length],
        ['send', Object.keys(catalog).length],
      ]);
    }
    expect(catalogTypes.map((definition) => definition.type).sort()).toEqual(Object.keys(samples).sort());
  });

  it('when a topic has consumers, then its dead-letter topic has a channel, a message with the dlq-* headers and a send operation', () => {
    for (const topic of Object.values(Topics)) {
      const [channelId, channel] = Object.entries(document.channels).find(([, each]) => each.address === deadLetterTopic(topic)) ?? [];
      expect(channel).toBeDefined();
      const [name] = Object.keys(channel?.messages ?? {});
      expect(document.components.messages[name].headers.required).toEqual(expect.arrayContaining(Object.values(DeadLetterHeaders)));
      const sends = Object.values(document.operations).filter((operation) => operation.channel.$ref === `#/channels/${channelId}`);
      expect(sends.map((operation) => operation.action)).toEqual(['send']);
    }
  });

  for (const definition of catalogTypes) {
    describe(definition.type, () => {
      const message = () => document.components.messages[definition.type];

      it('when a payload is valid, then its published schema and its check both accept it', () => {
        expect(schemaProblems(definition.schema, samples[definition.type].good, 'payload')).toEqual([]);
        expect(accepts(message().payload, samples[definition.type].good)).toBe(true);
      });

      it('when a payload is one past a limit, then its published schema and its check both refuse it', () => {
        expect(schemaProblems(definition.schema, samples[definition.type].pastLimit, 'payload')).not.toEqual([]);
        expect(accepts(message().payload, samples[definition.type].pastLimit)).toBe(false);
      });

      it('when the outbox writes its headers, then the headers schema accepts them; without message-id it refuses them', () => {
        const headers = {
          [Headers.messageId]: orderId,
          [Headers.messageType]: definition.type,
          [Headers.schemaVersion]: String(definition.schemaVersion),
          [Headers.aggregateId]: orderId,
          [Headers.occurredAt]: at,
          [Headers.correlationId]: orderId,
          [Headers.traceparent]: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        };
        expect(accepts(message().headers, headers)).toBe(true);
        expect(accepts(message().headers, { ...headers, [Headers.messageType]: 'SomethingElse' })).toBe(false);
        const { [Headers.messageId]: _, ...withoutId } = headers;
        expect(accepts(message().headers, withoutId)).toBe(false);
        expect(message().bindings.kafka.key.type).toBe('string');
      });
    });
  }
});

describe('field schemas and their published JSON Schema', () => {
  it('when a string limit is counted, then JSON Schema counts the same code points as the check', () => {
    const customer = text({ maxLength: OrderLimits.customerIdMaxLength });
    const emoji = '😀'.repeat(OrderLimits.customerIdMaxLength);
    expect([schemaProblems(customer, emoji), accepts(jsonSchemaOf(customer), emoji)]).toEqual([[], true]);
    expect([schemaProblems(customer, `${emoji}😀`).length, accepts(jsonSchemaOf(customer), `${emoji}😀`)]).toEqual([1, false]);
  });

  it('when a pattern has a flag JSON Schema cannot carry, then the field is refused where it is declared', () => {
    expect(() => text({ pattern: /^a$/i })).toThrow(/flags/);
  });

  it('when a code is not a declared rejection code, then schema and check both refuse it', () => {
    const code = oneOf(RejectionCodes);
    expect([schemaProblems(code, 'INVENTORY.NOPE').length, accepts(jsonSchemaOf(code), 'INVENTORY.NOPE')]).toEqual([1, false]);
    expect([
      schemaProblems(code, RejectionCodes.INSUFFICIENT_STOCK),
      accepts(jsonSchemaOf(code), RejectionCodes.INSUFFICIENT_STOCK),
    ]).toEqual([[], true]);
  });
});
