import { type ChildProcess, spawn } from 'node:child_process';
import { describeExit, type ExitInfo } from './exit-info.js';
import { pipeWithPrefix } from './pipe-with-prefix.js';
import { waitFor } from './wait-for.js';

export interface SupervisedAppOptions {
  /** Prefix of every output line, e.g. `orders` gives `[orders] ...`. */
  name: string;
  /** Compiled entry point, e.g. `dist/apps/orders/src/main.js`. */
  entry: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Node options before the entry, e.g. `['--watch']` for `npm run dev`; default none. With
   * `--watch` the process is Node's watcher and the app its child, so signals go to the group.
   */
  nodeArgs?: string[];
  /** Arguments after the entry; default none. */
  args?: string[];
}

/**
 * A long-running service started by local tooling (`npm start`): output streamed line by line with
 * a prefix and not kept in memory, readiness by HTTP, and a stop that escalates from SIGTERM to
 * SIGKILL. Tests that need the output kept or crash-kill a process use `AppProcess` instead.
 *
 * The child runs in its own process group (`detached`), so a Ctrl-C in the terminal reaches only
 * the supervisor, which then stops every app in order; otherwise each app would race its own
 * shutdown against the supervisor's. The supervisor must therefore stop its apps on every way out
 * (see {@link SupervisedApp.killNow}).
 */
export class SupervisedApp {
  /** Settles when the process has exited, for whatever reason. */
  readonly exited: Promise<ExitInfo>;
  private readonly child: ChildProcess;
  private exitInfo: ExitInfo | undefined;

  constructor(readonly options: SupervisedAppOptions) {
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    void pipeWithPrefix(this.child.stdout!, `[${options.name}]`, process.stdout);
    void pipeWithPrefix(this.child.stderr!, `[${options.name}]`, process.stderr);
    this.exited = new Promise((resolve) => {
      // A failed spawn emits 'error' and maybe no 'exit': treat it as an exit so nobody waits forever.
      this.child.once('error', () => resolve((this.exitInfo ??= { code: null, signal: null })));
      this.child.once('exit', (code, signal) => resolve((this.exitInfo ??= { code, signal })));
    });
  }

  get name(): string {
    return this.options.name;
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined;
  }

  /**
   * Waits until `GET url` answers 200. Fails as soon as the process exits (no point waiting out the
   * deadline for a dead process), or after `timeoutMs` (default 90 s: a cold start on a slow CI box
   * includes connecting to Postgres and Kafka and creating topics).
   */
  async waitUntilHealthy(url: string, timeoutMs = 90_000): Promise<void> {
    const outcome = await waitFor(
      async () => {
        if (this.exitInfo) return { exited: this.exitInfo };
        const response = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
        return response?.status === 200 ? { exited: undefined } : false;
      },
      { timeoutMs, intervalMs: 250, description: `${this.name} to answer 200 at ${url}` },
    );
    if (outcome.exited) throw new Error(`${this.name} exited (${describeExit(outcome.exited)}) before ${url} answered`);
  }

  /**
   * SIGTERM, so the app drains consumers and closes pools; SIGKILL when it has not exited after
   * `graceMs` (default 10 s). Resolves with how it ended; safe to call on an exited process.
   */
  async stop(graceMs = 10_000): Promise<'already-exited' | 'stopped' | 'killed'> {
    if (!this.isRunning) return 'already-exited';
    this.signalGroup('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const result = await Promise.race([this.exited, deadline]);
    clearTimeout(timer);
    if (result !== 'timeout') return 'stopped';
    this.signalGroup('SIGKILL');
    await this.exited;
    return 'killed';
  }

  /** SIGKILL now, synchronously: the last resort from a `process.on('exit')` hook. */
  killNow(): void {
    if (this.isRunning) this.signalGroup('SIGKILL');
  }

  /**
   * The child leads its own process group (`detached`): signalling the group also reaches what it
   * started itself, such as the app under `node --watch`, which would otherwise outlive a SIGKILL.
   */
  private signalGroup(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, signal);
      else this.child.kill(signal);
    } catch {
      this.child.kill(signal);
    }
  }
}
