import type { FailpointName } from '@app/failpoints';

export const INBOX_OPTIONS = Symbol('INBOX_OPTIONS');

export interface InboxHandlerOptions {
  /** Stable handler name, e.g. `inventory.order-events`; renaming it re-processes history. */
  consumer: string;
  afterCommitFailpoint?: FailpointName;
}
