import { defineFailpoints } from '@libs/failpoints';

/**
 * The inbox library's own crash window. The windows around a handler's transaction belong to the
 * app that declares the handler (`afterCommitFailpoint`, `beforeCommitFailpoint`).
 */
export const InboxFailpoints = defineFailpoints('inbox', {
  /** A batch committed in one transaction, its offsets not resolved: redelivered and skipped. */
  afterBatchCommitBeforeOffsets: 'after-batch-commit-before-offsets',
});
