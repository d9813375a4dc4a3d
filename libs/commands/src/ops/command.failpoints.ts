import { defineFailpoints } from '@libs/failpoints';

/** The dispatcher's crash window (see docs/commands.md, "Failpoint"). */
export const DispatcherFailpoints = defineFailpoints('dispatcher', {
  /** The partner accepted the command, it is not marked DONE: resent with the same key. */
  afterAcceptedBeforeMark: 'after-accepted-before-mark',
});
