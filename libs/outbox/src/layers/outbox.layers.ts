import type { SpeedUpLayer } from '@libs/config';
import { lingerLayer } from './linger.layer.js';
import { readAheadLayer } from './read-ahead.layer.js';
import { relaxedCommitLayer } from './relaxed-commit.layer.js';

/**
 * The outbox relay's speed-ups, each beside the core (relay/outbox.relay.ts) and each switched off
 * by its `switch` set to `false`. With all of them off the relay is the textbook one: one batch per
 * transaction, a durable commit, a cycle per wake-up; correct, and slower.
 */
export const outboxLayers: readonly SpeedUpLayer[] = [readAheadLayer, relaxedCommitLayer, lingerLayer];
