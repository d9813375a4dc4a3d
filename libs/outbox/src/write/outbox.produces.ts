import type { MessageDeclaration } from '@libs/envelope';

/** The messages one topic carries, keyed by a name of the domain's choosing (`OrderEvents` is one). */
export type Sends = Readonly<Record<string, MessageDeclaration>>;

/** A topic an app writes through its outbox: what `main.ts` creates, the AsyncAPI document, the service catalog and its Kafka ACLs read. */
export interface ProducedTopic {
  readonly topic: string;
  /** The messages the app writes to it. */
  readonly sends: readonly MessageDeclaration[];
  /** The payload field whose value is the record key (each message's `aggregateIdField`). */
  readonly key: string;
}

/**
 * Declares that an app writes `options.sends` to `options.topic` through its outbox. The record key
 * is read from the messages (their `aggregateIdField`), so it is stated once, in the contracts.
 * Throws when a message travels on another topic, names no aggregate id field, or the messages
 * disagree on it: one topic, one key, or per-aggregate order across its messages is lost.
 */
export function producedTopic(options: { readonly topic: string; readonly sends: Sends }): ProducedTopic {
  const sends = Object.values(options.sends);
  if (sends.length === 0) throw new Error(`${options.topic}: a produced topic sends at least one message`);
  for (const message of sends) {
    if (message.topic !== options.topic) throw new Error(`${message.type} travels on ${message.topic}, not ${options.topic}`);
  }
  const keys = [...new Set(sends.map((message) => message.aggregateIdField))];
  const [key] = keys;
  if (keys.length !== 1 || key === undefined) {
    throw new Error(`${options.topic}: every message must name the same aggregateIdField (the record key), got ${keys.join(', ')}`);
  }
  return { topic: options.topic, sends, key };
}

/** Everything an app writes through its outbox: one {@link producedTopic} per topic. */
export type AppProduces = readonly ProducedTopic[];

/** The topics of `produces`: what an app creates at start-up and its Kafka principal may write. */
export function producedTopics(produces: AppProduces): string[] {
  return produces.map((produced) => produced.topic);
}
