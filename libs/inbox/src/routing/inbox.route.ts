import type { MessageDeclaration } from '@libs/envelope';
import type { FailpointName } from '@libs/failpoints';
import type { InboxEnvelope } from '../envelope/inbox.envelope.js';
import type { ConsumedTopicOptions, InboxBatchLocks, InboxHandler, MessageHandler, Accepts } from './consumed-topic.declaration.js';

/** A consumed topic as the inbox runs it, with the handler and lock providers resolved. */
export interface InboxRoute {
  readonly topic: string;
  readonly consumer: string;
  readonly accepts: readonly MessageDeclaration[];
  readonly beforeCommitFailpoint?: FailpointName;
  readonly afterCommitFailpoint?: FailpointName;
  /** Runs the handler of `messageType` on `envelopes` (claimed, of that type, in offset order). */
  handle(messageType: string, envelopes: readonly InboxEnvelope[]): Promise<void>;
  /** Takes the batch's locks (a no-op without a lock provider). */
  lock(envelopes: readonly InboxEnvelope[]): Promise<void>;
}

/**
 * The route of `options` with `handler` and `locks` as instances. The one place the inbox meets
 * the app's types: `handlers[key]` takes envelopes of that key's payload type, and the payload of
 * an envelope of that type passed that declaration's schema before it got here (the envelope
 * check), so the casts below restate what the check proved.
 */
export function inboxRoute<A extends Accepts, Need>(
  options: Omit<ConsumedTopicOptions<A, Need>, 'handler' | 'locks'>,
  handler: InboxHandler<A>,
  locks?: InboxBatchLocks<A, Need>,
): InboxRoute {
  const keyOfType = new Map<string, keyof A>();
  for (const key of Object.keys(options.accepts) as (keyof A & string)[]) {
    keyOfType.set(options.accepts[key].type, key);
    if (typeof handler.handlers[key] !== 'function') throw new Error(`${options.consumer}: no handler for ${key}`);
    if (locks && typeof locks.needs[key] !== 'function') throw new Error(`${options.consumer}: no lock entry for ${key}`);
  }
  const keyOf = (messageType: string): keyof A => {
    const key = keyOfType.get(messageType);
    if (key === undefined) throw new Error(`${options.consumer}: ${messageType} is not accepted`);
    return key;
  };
  return {
    topic: options.topic,
    consumer: options.consumer,
    accepts: Object.values(options.accepts),
    beforeCommitFailpoint: options.beforeCommitFailpoint,
    afterCommitFailpoint: options.afterCommitFailpoint,
    handle: (messageType, envelopes) => {
      const handle = handler.handlers[keyOf(messageType)] as MessageHandler<unknown>;
      return handle(envelopes);
    },
    lock: async (envelopes) => {
      if (!locks || envelopes.length === 0) return;
      await locks.lock(
        envelopes.map((envelope) => (locks.needs[keyOf(envelope.messageType)] as (payload: unknown) => Need)(envelope.payload)),
      );
    },
  };
}
