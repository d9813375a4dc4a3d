import type { Type } from '@nestjs/common';
import type { MessageDeclaration } from '@app/envelope';
import type { FailpointName } from '@app/failpoints';
import type { InboxEnvelope } from './inbox-envelope.js';

export const INBOX_OPTIONS = Symbol('INBOX_OPTIONS');

/**
 * Takes, in one global order, the row locks a batch of handlers is going to take, before any
 * handler runs. Why: a batch transaction holds every lock its handlers took until it commits, so
 * two batches (two partitions consumed concurrently, or two replicas) that lock the same rows in
 * different orders deadlock. Postgres then aborts one and its chunk is replayed one message at a
 * time (correct, but slow). Locking the union of a batch's rows in sorted order first prevents it.
 */
export interface InboxBatchLocks {
  lock(envelopes: InboxEnvelope[]): Promise<void>;
}

export interface InboxHandlerOptions {
  /** Stable handler name, e.g. `inventory.order-events`; renaming it re-processes history. */
  consumer: string;
  /**
   * The message declarations this handler accepts (from the domain's contracts). A message of any
   * other type, or of another schema version, or whose payload fails the declaration's schema, is
   * dead-lettered at once and never reaches the handler; so the inbox knows the envelope, not the
   * domain, and a new message type is a change to the app's handler, not to this library.
   */
  accepts: readonly MessageDeclaration[];
  /** Killed here in crash tests: committed in the database, offset not yet committed to Kafka. */
  afterCommitFailpoint?: FailpointName;
  /** Killed here in crash tests: the handler ran, its transaction has not committed. */
  beforeCommitFailpoint?: FailpointName;
  /**
   * A provider (resolved from the app's module graph) that locks what a batch will touch, in one
   * order; see {@link InboxBatchLocks}. Default none: right for handlers whose rows no other
   * partition's messages touch (one order per key).
   */
  batchLocks?: Type<InboxBatchLocks>;
}
