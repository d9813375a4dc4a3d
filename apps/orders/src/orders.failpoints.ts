import { defineFailpoints } from '@libs/failpoints';

/** Orders' crash windows, each killed by a test (the crash-window table of docs/guarantees.md). */
export const OrdersFailpoints = defineFailpoints('orders', {
  /** `POST /orders` committed, the 201 not sent: the retry with the same key gets the same order. */
  afterCommitBeforeResponse: 'after-commit-before-response',
  /** A reservation answer applied, its inbox transaction not committed: nothing kept, redelivered. */
  afterHandlerBeforeCommit: 'after-handler-before-commit',
  /** A reservation answer committed, its offset not: redelivered and skipped as a duplicate. */
  afterCommitBeforeAck: 'after-commit-before-ack',
});
