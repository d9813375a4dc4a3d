export { OutboxMessage } from './outbox-message.entity.js';
export { CreateOutboxMessages1764460800010 } from './create-outbox-messages.migration.js';
export { outboxEnv, type OutboxConfig } from './outbox.config.js';
export type { OutboxEvent } from './outbox-event.js';
export { OutboxWriter, OUTBOX_CHANNEL } from './outbox.writer.js';
export { OutboxRelay, type BatchResult } from './outbox.relay.js';
export { OutboxCleanup } from './outbox.cleanup.js';
export { OutboxModule } from './outbox.module.js';
export { isBrokerUnavailable } from './broker-unavailable.js';
