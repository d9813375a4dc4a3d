import { type ChildProcess, spawn } from 'node:child_process';
import { APP_NODE_FLAGS } from './app-node-flags.js';
import { describeExit, type ExitInfo } from './exit-info.js';
import { pipeWithPrefix } from './pipe-with-prefix.js';
import { waitFor } from '@tools/test-support';

export interface NodeProcessOptions {
  /** Prefix of every echoed line (`[orders] ...`) and name in errors, e.g. `orders`. */
  name: string;
  /** Compiled entry point, e.g. `dist/apps/orders/src/main.js`. */
  entry: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Node options before the entry; default {@link APP_NODE_FLAGS}, the flags every app runs with.
   * `npm run dev` adds `--watch`: the process is then Node's watcher and the app its child.
   */
  nodeArgs?: readonly string[];
  /** Arguments after the entry; default none. */
  args?: readonly string[];
  /** Print the output live, line by line with the name as prefix; default false. */
  echo?: boolean;
  /** With `echo`: called with each line of output as it is printed (stdout and stderr). */
  onLine?: (line: string) => void;
  /**
   * Keep the output in memory for {@link NodeProcess.logs} and error messages; default true. A
   * long-running process of `npm start` turns it off: its output would grow without bound.
   */
  keepOutput?: boolean;
  /**
   * With `keepOutput`, keep only about the last this many characters (at least that many, at most
   * twice): for a process that prints for minutes under load while a test or a bench still wants
   * its last words when it fails. Default: all of it.
   */
  keptOutputChars?: number;
  /**
   * Run in a process group of its own (`detached`) and signal the whole group; default false. For
   * a supervisor (`npm start`): a Ctrl-C in the terminal then reaches only the supervisor, which
   * stops every app in order instead of each racing its own shutdown, and a stop also reaches what
   * the process started itself (the app under `node --watch`). Such a supervisor must stop its
   * processes on every way out, since they no longer die with the terminal.
   */
  ownProcessGroup?: boolean;
  /**
   * A command that runs Node for it, before Node's own path and arguments: `ip netns exec NAME` runs
   * the process inside a network namespace. It must exec (not fork) Node, so the child's pid is
   * Node's and a signal reaches it. Default none.
   */
  wrapper?: readonly string[];
  /** Kill the process (SIGTERM) when it runs longer; default never. */
  timeoutMs?: number;
  /** Aborting kills the process (SIGTERM), e.g. a migration when the user presses Ctrl-C during start-up. */
  signal?: AbortSignal;
}

/**
 * `kept` with `text` appended, cut to its last `limit` characters once it holds twice that: each
 * character is copied at most once more by the cut, so keeping costs the same per line however
 * long the process prints.
 */
function appendKept(kept: string, text: string, limit: number): string {
  const joined = kept + text;
  return joined.length > 2 * limit ? joined.slice(-limit) : joined;
}

/** Options of a one-off command ({@link NodeProcess.run}, {@link NodeProcess.outcome}). */
type OneOffOptions = Omit<NodeProcessOptions, 'name' | 'keepOutput' | 'keptOutputChars' | 'ownProcessGroup'> & { name?: string };

/**
 * A compiled Node entry as a child process: the one way local tooling, the benchmarks and the tests
 * run the apps and the scripts. A server is started with `new`, checked with
 * {@link waitUntilHealthy}, and ended with {@link stop} (graceful) or {@link kill} (SIGKILL: no
 * shutdown hook, no `finally`, no flushed buffer, exactly as when a machine loses power); a
 * supervisor watches {@link exited}. A one-off command (an app's `migrate` entry) runs to completion
 * with {@link NodeProcess.run}, or with {@link NodeProcess.outcome} when its failure is the point.
 */
export class NodeProcess {
  /** Settles when the process has exited, for whatever reason (a failed spawn counts as an exit). */
  readonly exited: Promise<ExitInfo>;
  readonly child: ChildProcess;
  /** Settles once the output streams have ended too, after {@link exited}: the output is complete. */
  private readonly closed: Promise<void>;
  private output = '';
  private stdoutText = '';
  private stderrText = '';
  private exitInfo: ExitInfo | undefined;
  private spawnError: Error | undefined;

  constructor(readonly options: NodeProcessOptions) {
    const { entry, nodeArgs = APP_NODE_FLAGS, args = [], wrapper = [] } = options;
    const nodeArgv = [...nodeArgs, entry, ...args];
    // A wrapper (`ip netns exec NAME`) runs Node itself; without one, Node is started directly.
    const [program, ...argv] = wrapper.length > 0 ? [...wrapper, process.execPath, ...nodeArgv] : [process.execPath, ...nodeArgv];
    this.child = spawn(program, argv, {
      cwd: options.cwd,
      env: options.env,
      detached: options.ownProcessGroup ?? false,
      signal: options.signal,
      timeout: options.timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (options.keepOutput ?? true) {
      const limit = options.keptOutputChars ?? Number.POSITIVE_INFINITY;
      this.child.stdout!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.output = appendKept(this.output, text, limit);
        this.stdoutText = appendKept(this.stdoutText, text, limit);
      });
      this.child.stderr!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.output = appendKept(this.output, text, limit);
        this.stderrText = appendKept(this.stderrText, text, limit);
      });
    }
    if (options.echo) {
      void pipeWithPrefix(this.child.stdout!, `[${options.name}]`, process.stdout, options.onLine);
      void pipeWithPrefix(this.child.stderr!, `[${options.name}]`, process.stderr, options.onLine);
    }
    this.exited = new Promise((resolve) => {
      // 'error' covers a failed spawn (maybe with no 'exit' after it) and an abort: nobody waits forever.
      this.child.once('error', (error) => {
        this.spawnError ??= error;
        resolve((this.exitInfo ??= { code: null, signal: null }));
      });
      this.child.once('exit', (code, signal) => resolve((this.exitInfo ??= { code, signal })));
    });
    this.closed = new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.child.once('error', () => resolve());
    });
  }

  /**
   * Runs `node <entry>` to completion, for one-off commands such as an app's `migrate` entry; no
   * Node options unless given. Resolves with the combined stdout and stderr when it exits 0;
   * otherwise rejects with an error that carries that output, so the caller can fail fast and show
   * why without re-running anything. Default `timeoutMs` 120 s: a migration that takes longer is
   * stuck on a lock.
   */
  static async run(options: OneOffOptions): Promise<string> {
    const script = await NodeProcess.completed({ timeoutMs: 120_000, ...options });
    const exit = script.exitInfo!;
    if (exit.code !== 0)
      throw new Error(`node ${options.entry} exited with ${exit.signal ?? `code ${exit.code}`}:\n${script.output.trimEnd()}`);
    return script.output;
  }

  /**
   * Runs `node <entry>` to completion and reports how it ended, whatever the exit code, with its
   * stdout and stderr apart: for a caller that expects a failure (a server refusing its
   * configuration) or reads one stream (a command's report). Rejects only when it cannot start.
   */
  static async outcome(options: OneOffOptions): Promise<ExitInfo & { stdout: string; stderr: string }> {
    const script = await NodeProcess.completed(options);
    return { ...script.exitInfo!, stdout: script.stdoutText, stderr: script.stderrText };
  }

  /** A one-off process, once exited and its output complete; no Node options unless given. */
  private static async completed(options: OneOffOptions): Promise<NodeProcess> {
    const script = new NodeProcess({ nodeArgs: [], ...options, name: options.name ?? options.entry, keepOutput: true });
    await script.exited;
    await script.closed;
    if (script.spawnError) throw new Error(`node ${options.entry} failed: ${script.spawnError.message}\n${script.output}`);
    return script;
  }

  get name(): string {
    return this.options.name;
  }

  /** Everything the process printed so far (stdout and stderr); empty when `keepOutput` is off. */
  get logs(): string {
    return this.output;
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined;
  }

  /**
   * A new process of the same entry and options, `env` replaced when given: a restart, once this
   * one has exited. This object keeps the old process's output and exit.
   */
  respawn(env: NodeJS.ProcessEnv = this.options.env): NodeProcess {
    if (this.isRunning) throw new Error(`${this.name} is still running; stop or kill it before restarting`);
    return new NodeProcess({ ...this.options, env });
  }

  /** Resolves with the exit code and signal; rejects, with the output, when it does not exit in time. */
  async waitForExit(timeoutMs = 30_000): Promise<ExitInfo> {
    await waitFor(() => this.exitInfo, { timeoutMs, description: `${this.name} to exit` }).catch((error) => {
      throw this.withOutput(error as Error);
    });
    return this.exited;
  }

  /**
   * Waits until `GET url` answers 2xx (its `/health`). Fails as soon as the process exits (no point
   * waiting out the deadline for a dead process), or after `timeoutMs` (default 90 s: a cold start
   * on a slow CI box includes connecting to Postgres and Kafka and creating topics; after a SIGKILL
   * the consumer group waits out the dead member's session). The error carries the kept output.
   */
  async waitUntilHealthy(url: string, timeoutMs = 90_000): Promise<void> {
    const outcome = await waitFor(
      async () => {
        if (this.exitInfo) return { exited: this.exitInfo };
        const response = await fetch(url, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
        return response?.ok === true ? { exited: undefined } : false;
      },
      { timeoutMs, intervalMs: 200, description: `${this.name} to answer 2xx at ${url}` },
    ).catch((error) => {
      throw this.withOutput(error as Error);
    });
    if (outcome.exited) throw this.withOutput(new Error(`${this.name} exited (${describeExit(outcome.exited)}) before ${url} answered`));
  }

  /** Waits until the output contains `text`, e.g. a failpoint's last words (needs `keepOutput`). */
  async waitForOutput(text: string, timeoutMs = 60_000): Promise<void> {
    await waitFor(() => this.output.includes(text), { timeoutMs, description: `"${text}" in ${this.name}'s output` });
  }

  /**
   * Whether the process is gone by SIGKILL with `text` in its output, read to its end (stdout can
   * close after the exit is seen): how a failpoint ends a process.
   */
  async killedAfter(text: string): Promise<boolean> {
    if (this.exitInfo?.signal !== 'SIGKILL') return false;
    await this.closed;
    return this.output.includes(text);
  }

  /** Sends `signal` (default SIGKILL) now, synchronously: also the last resort from a `process.on('exit')` hook. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.isRunning) this.signal(signal);
  }

  /**
   * SIGTERM, so an app drains consumers and closes pools; SIGKILL when it has not exited after
   * `graceMs` (default 20 s). Resolves with how it ended; safe to call twice or on an exited process.
   */
  async stop(graceMs = 20_000): Promise<'already-exited' | 'stopped' | 'killed'> {
    if (!this.isRunning) return 'already-exited';
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const result = await Promise.race([this.exited, deadline]);
    clearTimeout(timer);
    if (result !== 'timeout') return 'stopped';
    this.signal('SIGKILL');
    await this.exited;
    return 'killed';
  }

  private signal(signal: NodeJS.Signals): void {
    if (this.options.ownProcessGroup && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, signal);
        return;
      } catch {
        // The group is gone already: fall through to the child itself.
      }
    }
    this.child.kill(signal);
  }

  private withOutput(error: Error): Error {
    return this.output === '' ? error : new Error(`${error.message}\n--- ${this.name} output ---\n${this.output}`);
  }
}
