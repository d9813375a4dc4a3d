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

/**
 * `layer` on the core alone, every other layer of `layers` off: the setting in which a layer's own
 * suite shows that the layer works without the others.
 */
export function layerAloneSetting(layers: readonly SpeedUpLayer[], layer: SpeedUpLayer): LayerSetting {
  if (!layers.includes(layer)) throw new Error(`layerAloneSetting: ${layer.name} is not one of the layers given`);
  return {
    name: `${layer.name} alone`,
    env: Object.fromEntries(layers.filter((other) => other !== layer).map((other) => [other.switch, 'false'])),
  };
}
