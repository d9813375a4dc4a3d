import type { OutboxConfig } from './outbox.config.js';

/** Injection token of the validated outbox configuration. */
export const OUTBOX_CONFIG = Symbol('OUTBOX_CONFIG');
export type { OutboxConfig };
