import { writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A failpoint's name, `<owner>.<window>` (`relay.after-publish-before-mark`). This library knows no
 * window: the code that owns one declares it with {@link defineFailpoints} and passes the declared
 * name to {@link failpoint}. A failpoint is compiled into production code and does nothing unless
 * the `FAILPOINTS` environment variable names it, and only in a process started for tests
 * (`FAILPOINTS_ENABLED=true` and `NODE_ENV=test`, see {@link failpointsFromEnv}).
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

/** The variable that must be `true`, with `NODE_ENV=test`, before `FAILPOINTS` is read at all. */
export const FAILPOINTS_ENABLED = 'FAILPOINTS_ENABLED';

/**
 * The failpoints `env` arms, after checking that it may arm any: `FAILPOINTS` is honoured only
 * with `FAILPOINTS_ENABLED=true` and `NODE_ENV=test`, both set on purpose by a test launcher. A
 * failpoint kills its process; a `FAILPOINTS` left in a production environment (copied from a
 * test's `.env`, set by a mistaken deploy) would let whoever reaches the armed line take the
 * service down. So a `FAILPOINTS` without both is refused with an error naming what is missing,
 * and apps call this at start-up (see {@link armFailpoints}), before they serve anything.
 *
 * @throws Error when `FAILPOINTS` is set without `FAILPOINTS_ENABLED=true` and `NODE_ENV=test`,
 * or when an entry of it is malformed.
 */
export function failpointsFromEnv(env: NodeJS.ProcessEnv): Map<string, ArmedFailpoint[]> {
  const value = env.FAILPOINTS?.trim() ?? '';
  if (value === '') return new Map();
  const missing = [
    ...(env[FAILPOINTS_ENABLED] === 'true' ? [] : [`${FAILPOINTS_ENABLED}=true`]),
    ...(env.NODE_ENV === 'test' ? [] : ['NODE_ENV=test']),
  ];
  if (missing.length > 0) {
    throw new Error(
      `FAILPOINTS is set ("${value}") but failpoints are for tests only and need ${missing.join(' and ')}; ` +
        'unset FAILPOINTS outside tests (a failpoint kills its process)',
    );
  }
  return parseFailpoints(value);
}

/**
 * Reads and checks `FAILPOINTS` once, at start-up: call it first thing in an app's bootstrap so
 * a refused `FAILPOINTS` stops the process before it listens (see {@link failpointsFromEnv}).
 * Without this call the first failpoint reached reads the environment itself, and a refused
 * value then never fires.
 */
export function armFailpoints(env: NodeJS.ProcessEnv = process.env): void {
  armed = failpointsFromEnv(env);
}

function armedFailpoints(): Map<string, ArmedFailpoint[]> {
  if (armed === undefined) {
    try {
      armed = failpointsFromEnv(process.env);
    } catch {
      // Not here: a throw would surface inside a relay cycle or a request. Disarmed instead; the
      // start-up call (armFailpoints) is where the operator hears about it.
      armed = new Map();
    }
  }
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
