import { describe, expect, it } from '@jest/globals';
import type { SpeedUpLayer } from '@libs/config';
import { outboxLayers } from '@libs/outbox';
import { layerOffEnv, layerResult, layersShapeProblems } from './layer-passes.js';
import { layersTable } from './results-markdown.js';

const readAhead: SpeedUpLayer = {
  name: 'read-ahead',
  pattern: 'outbox',
  switch: 'OUTBOX_READ_AHEAD_ENABLED',
  changes: 'reads ahead',
  costs: 'duplicates after a crash',
  decision: 'docs/decisions/0101-read-ahead.md',
};

/** A pass at 150/s for 20 s with these figures. */
const pass = (cpuMsPerOrder: number, p99Ms: number, statementsPerOrder: number, achievedPerSec = 150, backlogGrowing = false) => ({
  offeredPerSec: 150,
  durationSec: 20,
  p99Ms,
  achievedPerSec,
  backlogGrowing,
  cpu: { totalMsPerOrder: cpuMsPerOrder },
  postgres: { statementsPerOrder, roundTripsPerOrder: statementsPerOrder / 2 },
});

describe('the layers section of the bench', () => {
  it("when a layer is switched off, then the apps' environment sets its switch to 'false' and nothing else", () => {
    expect(layerOffEnv(readAhead)).toEqual({ OUTBOX_READ_AHEAD_ENABLED: 'false' });
  });

  it("when the outbox's layers are listed, then each has a switch that names its pattern and a decision record", () => {
    expect(outboxLayers.map((layer) => layer.name)).toEqual(['read-ahead', 'relaxed-commit', 'linger']);
    for (const layer of outboxLayers) {
      expect(layer.switch).toMatch(/^OUTBOX_[A-Z_]+_ENABLED$/);
      expect(layer.decision).toMatch(/^docs\/decisions\/\d{4}-[a-z0-9-]+\.md$/);
    }
  });

  it('when a layer was measured on and off, then its entry holds its name, switch, record and both figures', () => {
    const entry = layerResult(readAhead, pass(10, 400, 12), pass(11.5, 650, 15, 140, true));

    expect(entry).toEqual({
      name: 'read-ahead',
      pattern: 'outbox',
      switch: 'OUTBOX_READ_AHEAD_ENABLED',
      decision: 'docs/decisions/0101-read-ahead.md',
      offeredPerSec: 150,
      durationSec: 20,
      on: { cpuMsPerOrder: 10, p99Ms: 400, achievedPerSec: 150, backlogGrowing: false, statementsPerOrder: 12, roundTripsPerOrder: 6 },
      off: { cpuMsPerOrder: 11.5, p99Ms: 650, achievedPerSec: 140, backlogGrowing: true, statementsPerOrder: 15, roundTripsPerOrder: 7.5 },
    });
    expect(layersShapeProblems(JSON.parse(JSON.stringify([entry])))).toEqual([]);
  });

  it('when a figure could not be measured (NaN, null in the file), then the section keeps its shape', () => {
    const entry = layerResult(readAhead, pass(Number.NaN, 400, 12), pass(11, 500, 13));
    const written = JSON.parse(JSON.stringify([entry], (_key, value) => (Number.isNaN(value) ? null : value)));

    expect(layersShapeProblems(written)).toEqual([]);
  });

  it('when the section is missing or an entry lacks a figure, then the check names it', () => {
    const entry = JSON.parse(JSON.stringify(layerResult(readAhead, pass(10, 400, 12), pass(11, 500, 13))));
    delete entry.switch;
    delete entry.off.statementsPerOrder;
    entry.on.backlogGrowing = 'no';

    expect(layersShapeProblems(undefined)).toEqual(['layers is not an array']);
    expect(layersShapeProblems([entry])).toEqual([
      'layers.0.switch is not a string',
      'layers.0.on.backlogGrowing is not a boolean',
      'layers.0.off.statementsPerOrder is not a number',
    ]);
  });

  it('when rendered, then each layer is one row with its figures on / off, what switching it off costs in CPU, and a link to its record', () => {
    const rows = layersTable([layerResult(readAhead, pass(10, 400, 12), pass(11.5, 650, 15, 140, true))], '../..');

    expect(rows).toEqual([
      '| layer | switch | CPU ms/order on / off | CPU off ÷ on | p99 on / off | finished/s on / off | statements/order on / off | round trips/order on / off | record |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| outbox: read-ahead | `OUTBOX_READ_AHEAD_ENABLED` | 10.00 / 11.50 | 1.15 | 400 ms / 650 ms | 150.0 / 140.0 (growing) | 12.0 / 15.0 | 6.0 / 7.5 | [0101-read-ahead.md](../../docs/decisions/0101-read-ahead.md) |',
    ]);
  });
});
