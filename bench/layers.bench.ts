// Layer passes: what each speed-up layer buys, measured on the whole loop. A fresh loop (loyalty,
// inventory, orders on new databases) per pass; each layer gets a pair of passes side by side, one
// with every layer on and one with only that layer's switch set to 'false' in every app's
// environment, the order of the pair alternating from layer to layer: a single "on" pass taken
// first measured the machine's drift over the run, not the layers (decision record 0018 on
// interleaved rounds). Each pass is warmed at the fixed rate, then measured at it (CPU per order,
// p99, rate finished, statements per order).
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
 * Every layer of `layers` off in turn, each against a pass with all of them on run right beside it,
 * in this run. The caller stops any other loop first: two inventories on the same topics would
 * answer each other's orders.
 */
export async function runLayerPasses(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  layers: readonly SpeedUpLayer[],
  options: LayerPassOptions,
  log: (text: string) => void,
): Promise<LayerResult[]> {
  log(`layers: ${layers.map((layer) => layer.name).join(', ')}, each off beside a pass with every layer on`);
  const results: LayerResult[] = [];
  for (const [index, layer] of layers.entries()) {
    const onFirst = index % 2 === 0;
    log(
      `layers: ${layer.pattern} ${layer.name} off (${layer.switch}=false), its pass with every layer on ${onFirst ? 'before' : 'after'} it`,
    );
    const pass = (off: boolean) => onePass(infrastructure, services, off ? layerOffEnv(layer) : {}, options, log);
    const first = await pass(!onFirst);
    const second = await pass(onFirst);
    results.push(layerResult(layer, onFirst ? first : second, onFirst ? second : first));
  }
  return results;
}
