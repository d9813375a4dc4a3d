import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@libs/config';
import { inboxEnv } from '../inbox.config.js';
import { inboxLayers } from './inbox.layers.js';

/**
 * What the inbox says of each speed-up layer holds: a boolean switch in its env schema, on by
 * default; a file of the layer's own name; a decision record that exists. The contract suite
 * turns every switch off through this list, so a layer missing here would escape it.
 */
describe('inboxLayers', () => {
  it('lists the four layers beside the core, each once', () => {
    expect(inboxLayers.map((layer) => layer.name)).toEqual([
      'partition-in-one-transaction',
      'fetch-in-one-transaction',
      'offset-commits-per-interval',
      'fetch-linger',
    ]);
    expect(new Set(inboxLayers.map((layer) => layer.switch)).size).toBe(inboxLayers.length);
  });

  it.each(inboxLayers.map((layer) => [layer.name, layer] as const))(
    'when %s is described, then its switch is a boolean of the inbox schema, on by default, and its file and decision record exist',
    (name, layer) => {
      expect(layer.pattern).toBe('inbox');
      expect(layer.switch).toMatch(/^INBOX_[A-Z_]+_ENABLED$/);
      const key = layer.switch as keyof typeof inboxEnv;
      expect(inboxEnv[key]).toBeDefined();
      expect(loadConfig(inboxEnv, {})[key]).toBe(true);
      expect(loadConfig(inboxEnv, { [key]: 'false' })[key]).toBe(false);
      expect(existsSync(`libs/inbox/src/layers/${name}.layer.ts`)).toBe(true);
      expect(layer.decision).toMatch(/^docs\/decisions\/02\d\d-[a-z0-9-]+\.md$/);
      expect(existsSync(layer.decision)).toBe(true);
    },
  );
});
