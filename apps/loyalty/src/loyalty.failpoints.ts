import { defineFailpoints } from '@libs/failpoints';

/** Loyalty's crash window, killed (or slowed, `=sleep(<ms>)`) by the side-effects tests. */
export const LoyaltyFailpoints = defineFailpoints('loyalty', {
  /** An accrual committed, its response not sent: the caller retries with the same key and gets it replayed. */
  afterCommitBeforeResponse: 'after-commit-before-response',
});
