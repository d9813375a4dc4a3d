import type { BatchResult, OutboxRelay } from '../relay/outbox.relay.js';
import { outboxLayers } from './outbox.layers.js';

/**
 * The two ways the outbox suites run (`describe.each`): with the defaults (every speed-up layer on)
 * and with every layer switched off, the textbook core alone. Each is the environment to merge.
 */
export const OUTBOX_LAYER_MODES: readonly (readonly [string, Readonly<Record<string, string>>])[] = [
  ['the default layers', {}],
  ['every speed-up layer off', Object.fromEntries(outboxLayers.map((layer) => [layer.switch, 'false']))],
];

/** True when `env` switches the read-ahead layer off (one batch per relay transaction). */
export const readAheadOff = (env: Readonly<Record<string, string>>) => env.OUTBOX_READ_AHEAD_ENABLED === 'false';

/**
 * One relay transaction of at most one batch, through the layers that are on (the path a cycle
 * takes), reported as {@link BatchResult}: the suites call it in both modes.
 */
export async function oneTransaction(relay: OutboxRelay): Promise<BatchResult> {
  const { leader, selected, published, failed } = await relay.publishBatches(1);
  return { leader, selected, published, failed };
}
