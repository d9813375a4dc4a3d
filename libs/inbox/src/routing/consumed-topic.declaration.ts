import type { Type } from '@nestjs/common';
import { deadLetterTopic, type MessageDeclaration } from '@libs/envelope';
import type { FailpointName } from '@libs/failpoints';
import type { InboxEnvelope } from '../envelope/inbox.envelope.js';
import { inMessageScopeOf } from '../telemetry/inbox.telemetry.js';
import { inboxRoute, type InboxRoute } from './inbox.route.js';

/** The messages one topic's handler accepts, keyed by a name of the app's choosing (`OrderEvents` is one). */
export type Accepts = Readonly<Record<string, MessageDeclaration>>;

/** The payload type of a message declaration: `z.infer` of its schema. */
export type PayloadOf<D> = D extends MessageDeclaration<infer P> ? P : never;

/**
 * Handles the claimed messages of one type, in offset order, inside the inbox transaction. It may
 * do set-based work (a fixed number of statements for the whole list); {@link eachMessage} turns a
 * one-message function into one. A throw rolls back the transaction of every message with it: the
 * inbox then replays them one message at a time, each with its own retries.
 */
export type MessageHandler<P> = (envelopes: readonly InboxEnvelope<P>[]) => Promise<void>;

/** One handler per accepted message, each typed by its declaration's payload: a missing one is a compile error. */
export type HandlerMap<A extends Accepts> = { readonly [K in keyof A]: MessageHandler<PayloadOf<A[K]>> };

/** A provider that handles a topic: its handler map, keyed like the topic's {@link Accepts}. */
export interface InboxHandler<A extends Accepts> {
  readonly handlers: HandlerMap<A>;
}

/**
 * What each accepted message needs locked, one entry per accepted message: a message type added to
 * {@link Accepts} without saying what it locks does not compile.
 */
export type LockNeeds<A extends Accepts, Need> = { readonly [K in keyof A]: (payload: PayloadOf<A[K]>) => Need };

/**
 * Takes, in one global order, the row locks a batch of handlers is going to take, before any
 * handler runs. Why: a batch transaction holds every lock its handlers took until it commits, so
 * two batches (two partitions consumed concurrently, or two replicas) that lock the same rows in
 * different orders deadlock. Postgres then aborts one and its batch is replayed one message at a
 * time (correct, but slow). Locking the union of a batch's rows in sorted order first prevents it.
 */
export interface InboxBatchLocks<A extends Accepts, Need> {
  readonly needs: LockNeeds<A, Need>;
  /** Locks what `needs` (one per claimed message of the batch, in offset order) name, in one global order. */
  lock(needs: readonly Need[]): Promise<void>;
}

/**
 * How an app consumes one topic: what it accepts, who handles it, what it locks, where crash tests
 * kill it. The accepted messages are inferred from `accepts` alone (`NoInfer` elsewhere), so a
 * handler or lock provider that misses one of them is a compile error, not a narrower inference.
 */
export interface ConsumedTopicOptions<A extends Accepts, Need> {
  readonly topic: string;
  /** Names the handler in `inbox_messages.consumer`: one row per (handler, message). Renaming it re-processes history. */
  readonly consumer: string;
  /**
   * The message declarations this topic's handler accepts (from the domain's contracts). Any other
   * type, schema version or a payload that fails the declaration's schema is dead-lettered at
   * once and never reaches the handler.
   */
  readonly accepts: A;
  /** The provider (resolved from the app's module graph; list it in its feature module) that handles them. */
  readonly handler: Type<InboxHandler<NoInfer<A>>>;
  /**
   * A provider that locks what a batch will touch, in one order; see {@link InboxBatchLocks}.
   * Default none: right for handlers whose rows no other partition's messages touch (one order per key).
   */
  readonly locks?: Type<InboxBatchLocks<NoInfer<A>, Need>>;
  /** Killed here in crash tests: the handler ran inside the transaction, which is not committed yet. */
  readonly beforeCommitFailpoint?: FailpointName;
  /** Killed here in crash tests: committed in the database, offset not yet committed to Kafka. */
  readonly afterCommitFailpoint?: FailpointName;
}

/** A consumed topic, typed erased: what `main.ts`, the module, the AsyncAPI document and the service catalog read. */
export interface ConsumedTopic {
  readonly topic: string;
  readonly consumer: string;
  readonly accepts: readonly MessageDeclaration[];
  /** The route, given a way to get a provider instance (Nest's `ModuleRef.get`, or `new` in a test). */
  route(get: <T>(type: Type<T>) => T): InboxRoute;
}

/**
 * Declares how an app consumes `options.topic`. Typed from the accepted messages: the handler map
 * and the lock needs must name every accepted message, with its payload type.
 * Throws when an accepted message travels on another topic (a declaration mix-up).
 */
export function consumedTopic<A extends Accepts, Need = unknown>(options: ConsumedTopicOptions<A, Need>): ConsumedTopic {
  for (const [key, message] of Object.entries(options.accepts)) {
    if (message.topic !== options.topic) throw new Error(`${options.consumer}: ${key} travels on ${message.topic}, not ${options.topic}`);
  }
  return {
    topic: options.topic,
    consumer: options.consumer,
    accepts: Object.values(options.accepts),
    route: (get) => inboxRoute(options, get(options.handler), options.locks && get(options.locks)),
  };
}

/** Everything an app consumes: one {@link consumedTopic} per topic. */
export type AppConsumes = readonly ConsumedTopic[];

/** The topics of `consumes`, for subscriptions, lag metrics and the retention check. */
export function consumedTopics(consumes: AppConsumes): string[] {
  return consumes.map((consumed) => consumed.topic);
}

/** The consumed topics and their dead-letter topics: what an app creates before it subscribes. */
export function inboxTopics(consumes: AppConsumes): string[] {
  return consumes.flatMap((consumed) => [consumed.topic, deadLetterTopic(consumed.topic)]);
}

/**
 * A {@link MessageHandler} that handles one message at a time, each inside its message's scope
 * (its consumer span active, its log fields open to `annotateLog`): for handlers with nothing to
 * gain from set-based work.
 */
export function eachMessage<P>(handle: (envelope: InboxEnvelope<P>) => Promise<unknown>): MessageHandler<P> {
  return async (envelopes) => {
    for (const envelope of envelopes) await inMessageScopeOf(envelope, () => handle(envelope));
  };
}
