import { defineFailpoints } from '@libs/failpoints';

/** Inventory's crash windows around its order-events handler, each killed by a test (the crash-window table of docs/guarantees.md). */
export const InventoryFailpoints = defineFailpoints('inventory', {
  /** The reservation ran, its inbox transaction not committed: nothing kept, redelivered. */
  afterHandlerBeforeCommit: 'after-handler-before-commit',
  /** The reservation committed, its offset not: redelivered and skipped by the inbox. */
  afterCommitBeforeAck: 'after-commit-before-ack',
});
