// The committed benchmark runs the generated pages quote: a newer run is committed beside them
// (bench/results/latest.json or soak.json, copied) and named here instead.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from '@tools/local-stack';
import type { BenchResults } from '../../bench/bench-results.js';
import { soakDrift } from '../../bench/soak-drift.js';
import type { SoakResults } from '../../bench/soak-results.js';

/** The reference full run (`npm run bench`) and soak (`npm run bench -- --soak 20`), from the repository root. */
export const REFERENCE_RUN = 'bench/reference/full-run-interleaved-http-2026-12-07.json';
export const REFERENCE_SOAK = 'bench/reference/soak-20min-420-2026-12-07.json';

/** A committed results file; null, which JSON writes for a figure a run could not measure, read back as NaN. */
function readResults<T>(path: string): T {
  const text = readFileSync(join(findRepoRoot(), path), 'utf8');
  return JSON.parse(text, (_key, value: unknown) => (value === null ? Number.NaN : value)) as T;
}

export const referenceRun = (): BenchResults => readResults<BenchResults>(REFERENCE_RUN);
/** The reference soak, its drift judged from its samples by this code, not as the file's run judged it. */
export function referenceSoak(): SoakResults {
  const soak = readResults<SoakResults>(REFERENCE_SOAK);
  return { ...soak, drift: soakDrift(soak.samples, soak.minutes) };
}
