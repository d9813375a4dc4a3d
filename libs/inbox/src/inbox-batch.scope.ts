import { AsyncLocalStorage } from 'node:async_hooks';
import type { InboxEnvelope } from './inbox-envelope.js';

/**
 * The batch transaction a Kafka handler is running in, if any. {@link InboxBatchConsumer} claims a
 * batch's message ids and opens the transaction, then runs each claimed message through the Nest
 * handler pipeline inside this scope; the interceptor finds the message's envelope here and runs
 * the handler straight away, on the batch's transaction, instead of opening one of its own.
 */
export interface InboxBatchScope {
  topic: string;
  partition: number;
  /** Claimed envelopes of the batch by offset: only these may run. */
  envelopes: Map<string, InboxEnvelope>;
}

export const inboxBatchScope = new AsyncLocalStorage<InboxBatchScope>();
