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
 * Only what waiting cannot fix ends the wait, as a {@link ConfigValidationError} naming the
 * variable, which the app prints as its reason to exit: a refusal (a wrong password), or a
 * configuration error a check throws (a setting the broker's topics contradict).
 */
export async function waitForDependencies(dependencies: readonly StartUpDependency[], options: WaitOptions): Promise<void> {
  const retryMs = options.retryMs ?? 1000;
  const lastErrors = new Map<string, string>(dependencies.map((dependency) => [dependency.name, 'not tried yet']));
  // Set when one dependency ended the wait: the others stop trying.
  let stopped = false;
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
        while (!stopped) {
          try {
            await dependency.check();
            lastErrors.delete(dependency.name);
            report();
            return;
          } catch (error) {
            // A setting the dependency's answer contradicts is not worth waiting for either.
            const refusal = error instanceof ConfigValidationError ? error : refusalOf(dependency, error);
            if (refusal) {
              stopped = true;
              throw refusal;
            }
            lastErrors.set(dependency.name, (error as Error).message);
            await sleep(retryMs);
          }
        }
      }),
    );
  } finally {
    clearInterval(timer);
  }
}

/** `error` as the configuration error that ends the wait, when `dependency` says waiting cannot fix it. */
function refusalOf(dependency: StartUpDependency, error: unknown): ConfigValidationError | undefined {
  const reason = dependency.refusal(error);
  return reason === undefined ? undefined : new ConfigValidationError([reason]);
}
