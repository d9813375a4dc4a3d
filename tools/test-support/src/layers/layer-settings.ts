import type { SpeedUpLayer } from '@libs/config';

/** One way to run a pattern's suite: its name in the test title, and the variables that set it. */
export interface LayerSetting {
  readonly name: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The two settings a pattern's suite passes under (`describe.each(layerSettings(commandLayers))`):
 * the defaults, every speed-up layer on; and every layer's switch `false`, the core alone.
 */
export function layerSettings(layers: readonly SpeedUpLayer[]): readonly LayerSetting[] {
  if (layers.length === 0) throw new Error('layerSettings: no layers given; a pattern without layers has one setting');
  return [
    { name: 'the defaults', env: {} },
    { name: 'every layer off', env: Object.fromEntries(layers.map((layer) => [layer.switch, 'false'])) },
  ];
}
