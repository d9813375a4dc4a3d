// Layer passes: what each speed-up layer buys, measured on the whole loop. A fresh loop (loyalty,
// inventory, orders on new databases) per pass: one with every layer on, then one per layer with
// only that layer's switch set to 'false' in every app's environment. Each pass is warmed at the
// fixed rate, then measured at it (CPU per order, p99, rate finished, statements per order).
import type { SpeedUpLayer } from '@libs/config';
import type { ServiceSet } from '@tools/local-stack';
import type { BenchInfrastructure } from './bench-infrastructure.js';
import type { E2eRun } from './bench-results.js';
import { runE2eRate, startLoop, waitUntilIdle } from './end-to-end.bench.js';
import { layerOffEnv, layerResult, type LayerResult } from './layer-passes.js';

export interface LayerPassOptions {
  offeredPerSec: number;
  /** Load before the measured part of each pass, not measured (JIT, pools, first fetches). */
  warmUpMs: number;
  durationMs: number;
  settleMs: number;
}

/** One pass: a loop started with `env` on top of the bench's, warmed, measured, then stopped. */
async function onePass(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  env: Record<string, string>,
  options: LayerPassOptions,
  log: (text: string) => void,
): Promise<E2eRun> {
  const stack = await startLoop(infrastructure, services, env);
  try {
    const { offeredPerSec, settleMs } = options;
    await runE2eRate(stack, { offeredPerSec, durationMs: options.warmUpMs, settleMs }, log);
    await waitUntilIdle(stack, settleMs);
    return await runE2eRate(stack, { offeredPerSec, durationMs: options.durationMs, settleMs }, log);
  } finally {
    await Promise.all([stack.orders.stop(), stack.inventory.stop(), stack.loyalty.stop()]);
  }
}

/**
 * Every layer of `layers` off in turn against one pass with all of them on, in this run. The caller
 * stops any other loop first: two inventories on the same topics would answer each other's orders.
 */
export async function runLayerPasses(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  layers: readonly SpeedUpLayer[],
  options: LayerPassOptions,
  log: (text: string) => void,
): Promise<LayerResult[]> {
  log(`layers: a pass with every layer on, then ${layers.map((layer) => layer.name).join(', ')} off one at a time`);
  const on = await onePass(infrastructure, services, {}, options, log);
  const results: LayerResult[] = [];
  for (const layer of layers) {
    log(`layers: ${layer.pattern} ${layer.name} off (${layer.switch}=false)`);
    results.push(layerResult(layer, on, await onePass(infrastructure, services, layerOffEnv(layer), options, log)));
  }
  return results;
}
