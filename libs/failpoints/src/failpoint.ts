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
  'inventory.after-handler-before-commit',
  'inbox.after-batch-commit-before-offsets',
  'dispatcher.after-accepted-before-mark',
  'loyalty.after-commit-before-response',
] as const;

export type FailpointName = (typeof FailpointNames)[number];

/**
 * A failpoint as `FAILPOINTS` arms it: `name` fires at every call, `name@text` only at calls whose
 * `context` contains `text` (e.g. one order id), so a crash test on a shared broker is not set off
 * by someone else's message passing the same point first.
 */
export type FailpointSpec = FailpointName | `${FailpointName}@${string}`;

let armed: Map<string, string[]> | undefined;

/** Name to scopes (`''` for unscoped) from a `FAILPOINTS` value. Exported for its unit test. */
export function parseFailpoints(value: string): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const entry of value.split(',').map((item) => item.trim()).filter(Boolean)) {
    const at = entry.indexOf('@');
    const [name, scope] = at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
    parsed.set(name, [...(parsed.get(name) ?? []), scope]);
  }
  return parsed;
}

/** True when `name` is armed in `specs` for a call with `context`. */
export function failpointFires(specs: Map<string, string[]>, name: FailpointName, context = ''): boolean {
  return (specs.get(name) ?? []).some((scope) => scope === '' || context.includes(scope));
}

function armedFailpoints(): Map<string, string[]> {
  armed ??= parseFailpoints(process.env.FAILPOINTS ?? '');
  return armed;
}

/** The marker a failpoint writes just before it kills the process; tests wait for it. */
export function failpointMarker(name: FailpointName): string {
  return `FAILPOINT ${name} hit: SIGKILL`;
}

/**
 * Kills this process with SIGKILL when `name` is armed (for `context`, when armed with a scope).
 * SIGKILL, not an exception or `process.exit`: no `finally`, shutdown hook or buffered write may
 * run, as with a power cut.
 */
export function failpoint(name: FailpointName, context?: string): void {
  if (!failpointFires(armedFailpoints(), name, context)) return;
  // A synchronous write: the marker must be out before the process is gone.
  writeSync(2, `${failpointMarker(name)}\n`);
  process.kill(process.pid, 'SIGKILL');
}
