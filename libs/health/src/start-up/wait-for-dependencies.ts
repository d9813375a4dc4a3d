import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigValidationError } from '@libs/config';

/** Something an app needs before it can start, tried until it answers. */
export interface StartUpDependency {
  /** As `/health` names its check: `database`, `kafka`. */
  readonly name: string;
  /** Resolves once the dependency answers; throws what it met otherwise. */
  check(): Promise<void>;
  /** The reason, naming the variable to fix, when `error` is one that waiting cannot fix (a refused credential). */
  refusal(error: unknown): string | undefined;
}

/** Pacing of {@link waitForDependencies}. */
export interface WaitOptions {
  /** Told each time the set of dependencies not answering yet changes (empty: all answer). */
  onWaiting: (names: readonly string[]) => void;
  /** Where the "still waiting" lines go. */
  log: (line: string) => void;
  /** Pause between two tries of one dependency. Default 1000 ms. */
  retryMs?: number;
  /** Time between two "still waiting" lines. Default 5000 ms. */
  logIntervalMs?: number;
}

/**
 * Tries every dependency until it answers, however long that takes: a broker or a database that
 * is down at start-up comes back, and a process that gave up would need a supervisor to try again
 * for it. Every `logIntervalMs` a line names what is still awaited and the last error it gave.
 * Only a refusal that waiting cannot fix ends the wait: it throws a {@link ConfigValidationError}
 * naming the variable, which the app prints as its reason to exit.
 */
export async function waitForDependencies(dependencies: readonly StartUpDependency[], options: WaitOptions): Promise<void> {
  const retryMs = options.retryMs ?? 1000;
  const lastErrors = new Map<string, string>(dependencies.map((dependency) => [dependency.name, 'not tried yet']));
  let refused: string | undefined;
  const report = () => options.onWaiting([...lastErrors.keys()]);
  report();
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    const awaited = [...lastErrors].map(([name, error]) => `${name} (${error})`).join(', ');
    options.log(`starting: waiting for ${awaited} since ${seconds} s`);
  }, options.logIntervalMs ?? 5000);
  timer.unref();
  try {
    await Promise.all(
      dependencies.map(async (dependency) => {
        while (refused === undefined) {
          try {
            await dependency.check();
            lastErrors.delete(dependency.name);
            report();
            return;
          } catch (error) {
            refused = dependency.refusal(error);
            lastErrors.set(dependency.name, (error as Error).message);
            if (refused === undefined) await sleep(retryMs);
          }
        }
      }),
    );
  } finally {
    clearInterval(timer);
  }
  if (refused !== undefined) throw new ConfigValidationError([refused]);
}
