import { writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A failpoint's name, `<owner>.<window>` (`relay.after-publish-before-mark`). This library knows no
 * window: the code that owns one declares it with {@link defineFailpoints} and passes the declared
 * name to {@link failpoint}.
 */
export type FailpointName = `${string}.${string}`;

const declared = new Set<string>();

/**
 * Declares the crash windows of one owner (a library or an app), beside the code that has them:
 * `defineFailpoints('relay', { afterClaimBeforePublish: 'after-claim-before-publish' })` returns
 * `{ afterClaimBeforePublish: 'relay.after-claim-before-publish' }`, each name typed as its literal,
 * so a caller (the code at the window, the test that kills there) uses the declaration, not a
 * string spelled again. A failpoint is compiled into production code and does nothing unless the
 * `FAILPOINTS` environment variable names it. Throws when a name is declared twice (two owners
 * claiming one window would make a crash test kill the wrong process).
 */
export function defineFailpoints<const Owner extends string, const Windows extends Readonly<Record<string, string>>>(
  owner: Owner,
  windows: Windows,
): { readonly [K in keyof Windows]: `${Owner}.${Windows[K]}` } {
  const names = Object.fromEntries(Object.entries(windows).map(([key, window]) => [key, `${owner}.${window}`]));
  for (const name of Object.values(names)) {
    if (declared.has(name)) throw new Error(`failpoint ${name} is declared twice`);
    declared.add(name);
  }
  return Object.freeze(names) as { readonly [K in keyof Windows]: `${Owner}.${Windows[K]}` };
}

/**
 * A failpoint as `FAILPOINTS` arms it: `name` fires at every call, `name@text` only at calls whose
 * `context` contains `text` (e.g. one order id), so a crash test on a shared broker is not set off
 * by someone else's message passing the same point first. By default a firing failpoint kills its
 * process; a `=sleep(<ms>)` suffix (`name=sleep(5000)`, `name@text=sleep(5000)`) makes it wait
 * instead, for windows where a process must be slow rather than dead (a partner that commits, then
 * answers after the caller's timeout). A scope cannot contain `=`.
 */
export type FailpointSpec =
  FailpointName | `${FailpointName}@${string}` | `${FailpointName}=sleep(${number})` | `${FailpointName}@${string}=sleep(${number})`;

/** What an armed failpoint does when it fires. */
export type FailpointAction = { kind: 'kill' } | { kind: 'sleep'; ms: number };

/** One armed entry of `FAILPOINTS`: its scope (`''` for every call) and its action. */
export interface ArmedFailpoint {
  scope: string;
  action: FailpointAction;
}

const ACTION_SUFFIX = /=(?:(kill)|sleep\((\d+)\))$/;

let armed: Map<string, ArmedFailpoint[]> | undefined;

function parseEntry(entry: string): { name: string } & ArmedFailpoint {
  let rest = entry;
  let action: FailpointAction = { kind: 'kill' };
  if (entry.includes('=')) {
    const match = ACTION_SUFFIX.exec(entry);
    // Thrown, not ignored: a typo in an action would otherwise turn a slow-partner test into a crash test.
    if (!match) throw new Error(`FAILPOINTS entry "${entry}": the action after "=" must be kill or sleep(<ms>)`);
    action = match[1] ? { kind: 'kill' } : { kind: 'sleep', ms: Number(match[2]) };
    rest = entry.slice(0, match.index);
  }
  const at = rest.indexOf('@');
  return at < 0 ? { name: rest, scope: '', action } : { name: rest.slice(0, at), scope: rest.slice(at + 1), action };
}

/** Name to armed entries from a `FAILPOINTS` value. Exported for its unit test. */
export function parseFailpoints(value: string): Map<string, ArmedFailpoint[]> {
  const parsed = new Map<string, ArmedFailpoint[]>();
  for (const entry of value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const { name, scope, action } = parseEntry(entry);
    parsed.set(name, [...(parsed.get(name) ?? []), { scope, action }]);
  }
  return parsed;
}

/** The action of the first entry of `name` in `specs` armed for a call with `context`, if any. */
export function failpointAction(specs: Map<string, ArmedFailpoint[]>, name: FailpointName, context = ''): FailpointAction | undefined {
  return (specs.get(name) ?? []).find(({ scope }) => scope === '' || context.includes(scope))?.action;
}

/** True when `name` is armed in `specs` for a call with `context`. */
export function failpointFires(specs: Map<string, ArmedFailpoint[]>, name: FailpointName, context = ''): boolean {
  return failpointAction(specs, name, context) !== undefined;
}

function armedFailpoints(): Map<string, ArmedFailpoint[]> {
  armed ??= parseFailpoints(process.env.FAILPOINTS ?? '');
  return armed;
}

/** The marker a failpoint writes just before it kills the process; tests wait for it. */
export function failpointMarker(name: FailpointName): string {
  return `FAILPOINT ${name} hit: SIGKILL`;
}

/** The marker a failpoint armed with `=sleep(<ms>)` writes when it starts waiting. */
export function failpointSleepMarker(name: FailpointName): string {
  return `FAILPOINT ${name} hit: sleep`;
}

const DONE = Promise.resolve();

/**
 * Kills this process with SIGKILL when `name` is armed (for `context`, when armed with a scope);
 * when armed with `=sleep(<ms>)`, resolves after that delay instead. Unarmed, it returns a resolved
 * promise at once. SIGKILL, not an exception or `process.exit`: no `finally`, shutdown hook or
 * buffered write may run, as with a power cut. The kill happens synchronously inside the call, so
 * a caller that does not await still dies at this exact point; await it where a sleep may be armed.
 */
export function failpoint(name: FailpointName, context?: string): Promise<void> {
  const action = failpointAction(armedFailpoints(), name, context);
  if (!action) return DONE;
  if (action.kind === 'sleep') {
    writeSync(2, `${failpointSleepMarker(name)} ${action.ms} ms\n`);
    return sleep(action.ms).then(() => undefined);
  }
  // A synchronous write: the marker must be out before the process is gone.
  writeSync(2, `${failpointMarker(name)}\n`);
  process.kill(process.pid, 'SIGKILL');
  return DONE;
}
