import { defineFailpoints } from '@libs/failpoints';

/** The relay's crash windows (see docs/outbox.md, "Failure windows"); each has a test that kills a relay there. */
export const RelayFailpoints = defineFailpoints('relay', {
  /** Rows read and locked, nothing sent: they must be published after the restart. */
  afterClaimBeforePublish: 'after-claim-before-publish',
  /** Kafka acknowledged, rows not marked: they are republished with the same `message-id`. */
  afterPublishBeforeMark: 'after-publish-before-mark',
});
