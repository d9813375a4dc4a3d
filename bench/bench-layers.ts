// The speed-up layers the bench turns off one at a time (the `layers` section): every pattern
// library's own list, in the order a learner meets the patterns.
import { commandLayers } from '@libs/commands';
import type { SpeedUpLayer } from '@libs/config';
import { inboxLayers } from '@libs/inbox';
import { outboxLayers } from '@libs/outbox';

export const BENCH_LAYERS: readonly SpeedUpLayer[] = [...outboxLayers, ...inboxLayers, ...commandLayers];
