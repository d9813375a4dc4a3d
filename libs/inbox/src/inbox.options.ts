import type { FailpointName } from '@app/failpoints';

export const INBOX_OPTIONS = Symbol('INBOX_OPTIONS');

export interface InboxHandlerOptions {
  /** Stable handler name, e.g. `inventory.order-events`; renaming it re-processes history. */
  consumer: string;
  /** Crash window after the inbox transaction committed, before the offset commit. Default none. */
  afterCommitFailpoint?: FailpointName;
  /** Crash window after the handler ran, inside the inbox transaction, before its commit. Default none. */
  beforeCommitFailpoint?: FailpointName;
}
