import { writeSync } from 'node:fs';

/**
 * Every crash window the tests exercise. A failpoint is compiled into production code and does
 * nothing unless the `FAILPOINTS` environment variable names it.
 */
export const FailpointNames = [
  'orders.after-commit-before-response',
  'relay.after-claim-before-publish',
  'relay.after-publish-before-mark',
  'inventory.after-commit-before-ack',
  'dispatcher.after-accepted-before-mark',
  'loyalty.after-commit-before-response',
] as const;

export type FailpointName = (typeof FailpointNames)[number];

let armed: Set<string> | undefined;

function armedFailpoints(): Set<string> {
  armed ??= new Set((process.env.FAILPOINTS ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  return armed;
}

/** The marker a failpoint writes just before it kills the process; tests wait for it. */
export function failpointMarker(name: FailpointName): string {
  return `FAILPOINT ${name} hit: SIGKILL`;
}

/**
 * Kills this process with SIGKILL when `name` is armed. SIGKILL, not an exception or
 * `process.exit`: no `finally`, shutdown hook or buffered write may run, as with a power cut.
 */
export function failpoint(name: FailpointName): void {
  if (!armedFailpoints().has(name)) return;
  // A synchronous write: the marker must be out before the process is gone.
  writeSync(2, `${failpointMarker(name)}\n`);
  process.kill(process.pid, 'SIGKILL');
}
