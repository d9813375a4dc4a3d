import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@libs/config';
import { outboxEnv } from '../outbox.config.js';
import { relayLingerMs } from './linger.layer.js';
import { outboxLayers } from './outbox.layers.js';
import { OUTBOX_LAYER_MODES } from './outbox-layers.fixture.js';
import { relayTransactionSettings } from './relaxed-commit.layer.js';

describe('the outbox relay speed-up layers', () => {
  it('when nothing is set, then every layer is on; each switch is a boolean the outbox configuration declares', () => {
    const defaults = loadConfig(outboxEnv, {}) as Record<string, unknown>;
    for (const layer of outboxLayers) {
      expect(layer.pattern).toBe('outbox');
      expect(defaults[layer.switch]).toBe(true);
      expect(existsSync(layer.decision)).toBe(true);
    }
  });

  it("when every switch is 'false', then the relay's settings are the core's: no relaxed commit, no linger", () => {
    const [, off] = OUTBOX_LAYER_MODES[1];
    const config = loadConfig(outboxEnv, { ...off, OUTBOX_LINGER_MS: '40' });

    expect(relayTransactionSettings(config)).toEqual([]);
    expect(relayLingerMs(config)).toBe(0);
    expect(config.OUTBOX_READ_AHEAD_ENABLED).toBe(false);
  });

  it('when the layers are on, then the relay commits without waiting for the WAL flush and wake-ups linger OUTBOX_LINGER_MS', () => {
    const config = loadConfig(outboxEnv, { OUTBOX_LINGER_MS: '25' });

    expect(relayTransactionSettings(config)).toEqual(['SET LOCAL synchronous_commit = off']);
    expect(relayLingerMs(config)).toBe(25);
  });
});
