// The `layers` section of bench/results/latest.json: what each speed-up layer buys, read from short
// passes of the whole loop at the fixed rate, one with every layer on and one per layer with only
// that layer switched off, all in the same run. Pure, unit-tested in layer-passes.spec.ts.
import type { SpeedUpLayer } from '@libs/config';
import type { E2eRun } from './bench-results.js';

/** The figures a layer moves, read from one pass at the fixed rate. */
interface LayerPassFigures {
  /** The whole loop's CPU per order finished (apps, Postgres, broker), ms. */
  cpuMsPerOrder: number;
  /** Scheduled send → order final, ms. */
  p99Ms: number;
  /** Orders finished per second in the pass's steady part: below the offered rate, the pass was not sustained. */
  achievedPerSec: number;
  backlogGrowing: boolean;
  /** Postgres statements and round trips per order finished, every app together. */
  statementsPerOrder: number;
  roundTripsPerOrder: number;
}

/** One layer: its descriptor's name, pattern, switch and record, and the figures with it on and off. */
export interface LayerResult extends Pick<SpeedUpLayer, 'name' | 'pattern' | 'switch' | 'decision'> {
  offeredPerSec: number;
  durationSec: number;
  /** The pass with every layer on (shared by every layer of the run). */
  on: LayerPassFigures;
  /** The pass with only this layer off. */
  off: LayerPassFigures;
}

/** What a pass's figures are read from: the parts of an end-to-end run a layer moves. */
type PassRun = Pick<E2eRun, 'offeredPerSec' | 'durationSec' | 'p99Ms' | 'achievedPerSec' | 'backlogGrowing'> & {
  cpu: Pick<E2eRun['cpu'], 'totalMsPerOrder'>;
  postgres: Pick<E2eRun['postgres'], 'statementsPerOrder' | 'roundTripsPerOrder'>;
};

/** The apps' environment that switches `layer` off, and nothing else. */
export function layerOffEnv(layer: SpeedUpLayer): Record<string, string> {
  return { [layer.switch]: 'false' };
}

function passFigures(run: PassRun): LayerPassFigures {
  return {
    cpuMsPerOrder: run.cpu.totalMsPerOrder,
    p99Ms: run.p99Ms,
    achievedPerSec: run.achievedPerSec,
    backlogGrowing: run.backlogGrowing,
    statementsPerOrder: run.postgres.statementsPerOrder,
    roundTripsPerOrder: run.postgres.roundTripsPerOrder,
  };
}

export function layerResult(layer: SpeedUpLayer, on: PassRun, off: PassRun): LayerResult {
  return {
    name: layer.name,
    pattern: layer.pattern,
    switch: layer.switch,
    decision: layer.decision,
    offeredPerSec: on.offeredPerSec,
    durationSec: on.durationSec,
    on: passFigures(on),
    off: passFigures(off),
  };
}

const FIGURES: readonly (keyof LayerPassFigures)[] = [
  'cpuMsPerOrder',
  'p99Ms',
  'achievedPerSec',
  'backlogGrowing',
  'statementsPerOrder',
  'roundTripsPerOrder',
];

/** Every problem with `value` as the `layers` section, by path; empty when it has the shape. */
export function layersShapeProblems(value: unknown): string[] {
  if (!Array.isArray(value)) return ['layers is not an array'];
  const problems: string[] = [];
  value.forEach((layer: Record<string, unknown> | undefined, index) => {
    for (const key of ['name', 'pattern', 'switch', 'decision'])
      if (typeof layer?.[key] !== 'string') problems.push(`layers.${index}.${key} is not a string`);
    for (const key of ['offeredPerSec', 'durationSec'])
      if (typeof layer?.[key] !== 'number') problems.push(`layers.${index}.${key} is not a number`);
    for (const side of ['on', 'off'] as const) {
      const figures = layer?.[side] as Record<string, unknown> | undefined;
      for (const key of FIGURES) {
        const expected = key === 'backlogGrowing' ? 'boolean' : 'number';
        // null: a figure the pass could not measure (NaN in memory), still a figure of the section.
        if (typeof figures?.[key] !== expected && !(expected === 'number' && figures?.[key] === null))
          problems.push(`layers.${index}.${side}.${key} is not a ${expected}`);
      }
    }
  });
  return problems;
}
