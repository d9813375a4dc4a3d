import type { RawInboxMessage } from '../envelope/inbox.envelope.js';
import type { InboxRoute } from '../routing/inbox.route.js';

/**
 * The records of ONE partition, in offset order, as the transport hands them to the inbox. A plain
 * object: a layer hands a chunk of it on as `{ ...batch, records }`.
 */
export interface InboxBatch {
  topic: string;
  partition: number;
  records: readonly RawInboxMessage[];
  /** Lets the offset of `record` advance (committed by the consumer later): only after its commit. */
  resolve(record: RawInboxMessage): void;
  heartbeat(): Promise<void>;
  /** False once the consumer stops or the partition was revoked: stop taking new records. */
  isActive(): boolean;
  /**
   * Hands this partition back after a handler failed: nothing from the failed record on is
   * resolved, and the transport delivers it again from there in `delayMs` (Kafka: the partition is
   * paused, then resumed), while every other partition goes on being fetched and handled.
   */
  retryLater(delayMs: number): void;
}

/** `deferred`: a handler failed and the record waits for its next attempt (see {@link InboxBatch.retryLater}). */
export type InboxOutcome = 'processed' | 'duplicate' | 'dead-lettered' | 'deferred';

/** Records of one partition's batch that go into a transaction, alone or beside other partitions' records. */
export interface InboxPart {
  batch: InboxBatch;
  records: readonly RawInboxMessage[];
}

/** Hands one partition's records to the inbox (the core, or the core with its layers); the outcome of each record handled, in order. */
export type DeliverBatch = (batch: InboxBatch, route: InboxRoute) => Promise<InboxOutcome[]>;
