import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { MessageDeclaration } from '@libs/envelope';
import { producedTopic, producedTopics } from './outbox.produces.js';

const message = (type: string, topic = 'shop.order.v1', aggregateIdField: string | undefined = 'orderId'): MessageDeclaration => ({
  topic,
  type,
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.object({ orderId: z.string() }),
  aggregateIdField,
});

describe('producedTopic', () => {
  it('when every message travels on the topic with one aggregate id field, then that field is the key', () => {
    const produced = producedTopic({ topic: 'shop.order.v1', sends: { A: message('A'), B: message('B') } });
    expect({ ...produced, sends: produced.sends.map((each) => each.type) }).toEqual({
      topic: 'shop.order.v1',
      sends: ['A', 'B'],
      key: 'orderId',
    });
    expect(producedTopics([produced])).toEqual(['shop.order.v1']);
  });

  it('when a message travels on another topic, then the declaration is refused naming it', () => {
    expect(() => producedTopic({ topic: 'shop.order.v1', sends: { A: message('A', 'shop.cart.v1') } })).toThrow(
      'A travels on shop.cart.v1, not shop.order.v1',
    );
  });

  it('when the messages name no key or different keys, then the declaration is refused', () => {
    expect(() => producedTopic({ topic: 'shop.order.v1', sends: { A: { ...message('A'), aggregateIdField: undefined } } })).toThrow(
      /aggregateIdField/,
    );
    expect(() => producedTopic({ topic: 'shop.order.v1', sends: { A: message('A'), B: message('B', undefined, 'cartId') } })).toThrow(
      /orderId, cartId/,
    );
    expect(() => producedTopic({ topic: 'shop.order.v1', sends: {} })).toThrow(/at least one/);
  });
});
