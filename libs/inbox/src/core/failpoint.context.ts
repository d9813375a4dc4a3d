import type { InboxEnvelope } from '../envelope/inbox.envelope.js';

/** Key (aggregate id) and message id, so a crash test can scope a failpoint to its own message. */
export function failpointContext(envelope: InboxEnvelope): string {
  return `${envelope.key ?? ''} ${envelope.messageId}`;
}
