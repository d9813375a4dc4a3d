// The speed-up layers the bench turns off one at a time (the `layers` section). Each pattern
// library exports its own list; the inbox's and the commands' join here when they have layers.
import type { SpeedUpLayer } from '@libs/config';
import { outboxLayers } from '@libs/outbox';

export const BENCH_LAYERS: readonly SpeedUpLayer[] = [...outboxLayers];
