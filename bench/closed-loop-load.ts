// A closed-loop load: `concurrency` clients, each sending its next request when the last one is
// answered, for a fixed time. Right for a throughput ceiling (requests/s at full load); wrong for
// latency, which the open-model generator (open-model-load.ts) measures.
import { performance } from 'node:perf_hooks';

export interface ClosedLoopResult {
  completed: number;
  failed: number;
  perSec: number;
  firstError?: string;
}

/** Runs `send(n)` from `concurrency` clients for `durationMs`; `send` resolves to an error message or nothing. */
export async function closedLoop(
  send: (n: number) => Promise<string | undefined>,
  concurrency: number,
  durationMs: number,
): Promise<ClosedLoopResult> {
  let next = 0;
  let completed = 0;
  let failed = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + durationMs;
  const client = async () => {
    while (performance.now() < deadline) {
      const error = await send(next++);
      if (error === undefined) completed += 1;
      else {
        failed += 1;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsedSec = (performance.now() - started) / 1000;
  return { completed, failed, perSec: completed / elapsedSec, firstError };
}
