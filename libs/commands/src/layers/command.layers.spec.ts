import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { PartnerConnections } from '../dispatch/command.client.js';
import { commandLayers, commandLayersEnv, type CommandLayerSwitches, dispatchLayers } from './command.layers.js';

const root = new URL('../../../../', import.meta.url).pathname;
const allOn: CommandLayerSwitches = { 'dispatch-linger': true, 'concurrent-calls': true, 'batched-calls': true, 'coalesced-marks': true };
const allOff: CommandLayerSwitches = {
  'dispatch-linger': false,
  'concurrent-calls': false,
  'batched-calls': false,
  'coalesced-marks': false,
};

/** What dispatchLayers reads: a 40 ms linger, 8 calls at once, a batch endpoint; no call is made here. */
const options = (layers: CommandLayerSwitches) => ({
  layers,
  lingerMs: 40,
  concurrency: 8,
  batching: { paths: { '/calls': '/calls/batch' }, maxCommands: 10 },
  baseUrl: 'http://127.0.0.1:1',
  requestTimeoutMs: 3000,
  tokenSource: { token: async () => 'unused', invalidate: () => undefined },
});

describe('commandLayers (the speed-ups beside the dispatcher core)', () => {
  it('when the layers are listed, then each has a file of its name in layers/, a switch in the schema and a decision record', () => {
    const files = readdirSync(new URL('.', import.meta.url));
    expect(commandLayers.map((layer) => layer.name).sort()).toEqual(Object.keys(allOn).sort());
    for (const layer of commandLayers) {
      expect(layer.pattern).toBe('commands');
      expect(files).toContain(`${layer.name}.layer.ts`);
      expect(layer.switch).toBe(`COMMANDS_${layer.name.toUpperCase().replaceAll('-', '_')}_ENABLED`);
      expect(commandLayersEnv).toHaveProperty(layer.switch);
      expect(layer.decision).toMatch(/^docs\/decisions\/03\d\d-[a-z-]+\.md$/);
      expect(existsSync(root + layer.decision)).toBe(true);
    }
    expect(Object.keys(commandLayersEnv).sort()).toEqual(commandLayers.map((layer) => layer.switch).sort());
  });

  it('when every layer is off, then the core runs alone: no linger, one call at a time, a statement per mark', async () => {
    const marked: string[][] = [];
    const markDone = async (ids: readonly string[]) => {
      marked.push([...ids]);
      return new Set(ids);
    };
    const parts = { markDone, connections: {} as PartnerConnections, logger: { warn: () => undefined, error: () => undefined } };
    const core = dispatchLayers(options(allOff), parts);
    expect({ lingerMs: core.lingerMs, concurrency: core.concurrency }).toEqual({ lingerMs: 0, concurrency: 1 });
    expect(await Promise.all([core.markDone(['a']), core.markDone(['b']), core.markDone(['c'])])).toEqual([[true], [true], [true]]);
    expect(marked).toEqual([['a'], ['b'], ['c']]);

    marked.length = 0;
    const tuned = dispatchLayers(options(allOn), parts);
    expect({ lingerMs: tuned.lingerMs, concurrency: tuned.concurrency }).toEqual({ lingerMs: 40, concurrency: 8 });
    await Promise.all([tuned.markDone(['a']), tuned.markDone(['b']), tuned.markDone(['c'])]);
    expect(marked).toEqual([['a'], ['b', 'c']]);
  });

  it('when every layer is off, then a claim is sent one command after the other, each alone, even with a batch endpoint', async () => {
    const events: string[] = [];
    const send = async (command: { id: string }) => {
      events.push(`start ${command.id}`);
      await new Promise((resolve) => setImmediate(resolve));
      events.push(`end ${command.id}`);
    };
    const work = { send, record: async () => undefined, markAccepted: async () => undefined };
    const core = dispatchLayers(options(allOff), {
      markDone: async (ids) => new Set(ids),
      connections: {} as PartnerConnections,
      logger: { warn: () => undefined, error: () => undefined },
    });
    const due = ['a', 'b'].map((id) => ({ id, path: '/calls', body: {}, attempts: 0, traceparent: null }));
    await core.sendAll(due, work);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
  });
});
