import { type ChildProcess, spawn } from 'node:child_process';
import { APP_NODE_FLAGS } from './app-node-flags.js';
import type { ExitInfo } from './exit-info.js';
import { pipeWithPrefix } from './pipe-with-prefix.js';
import { waitFor } from './wait-for.js';

export interface AppProcessOptions {
  /** Prefix of every log line, e.g. `orders`. */
  name: string;
  /** Compiled entry point, e.g. `dist/apps/orders/src/main.js`. */
  entry: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Print the child's output as it comes (always kept in `output` too). */
  echo?: boolean;
}

/**
 * A real service process for tests that kill things: SIGKILL means no shutdown hook, no `finally`,
 * no flushed buffer, exactly as when a machine loses power.
 */
export class AppProcess {
  readonly child: ChildProcess;
  private output = '';
  private exitInfo: ExitInfo | undefined;
  private readonly exited: Promise<ExitInfo>;

  constructor(private readonly options: AppProcessOptions) {
    this.child = spawn(process.execPath, [...APP_NODE_FLAGS, options.entry], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
    };
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    if (options.echo) {
      void pipeWithPrefix(this.child.stdout!, `[${options.name}]`);
      void pipeWithPrefix(this.child.stderr!, `[${options.name}]`, process.stderr);
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  get logs(): string {
    return this.output;
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined;
  }

  /** Resolves with the exit code and signal; rejects when it does not exit in time. */
  async waitForExit(timeoutMs = 30_000): Promise<ExitInfo> {
    return waitFor(() => this.exitInfo, { timeoutMs, description: `${this.options.name} to exit` }).catch((error) => {
      throw new Error(`${(error as Error).message}\n--- ${this.options.name} output ---\n${this.output}`);
    }).then(() => this.exited);
  }

  /** Waits until `GET url` answers 2xx; fails early, with the output, when the process dies. */
  async waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        if (!this.isRunning) {
          throw new Error(`${this.options.name} exited (${JSON.stringify(this.exitInfo)}):\n${this.output}`);
        }
        const response = await fetch(url).catch(() => undefined);
        return response?.ok === true;
      },
      { timeoutMs, intervalMs: 200, description: `${this.options.name} at ${url}` },
    ).catch((error) => {
      throw new Error(`${(error as Error).message}\n--- ${this.options.name} output ---\n${this.output}`);
    });
  }

  /** Waits until the output contains `text`, e.g. a failpoint's last words. */
  async waitForOutput(text: string, timeoutMs = 60_000): Promise<void> {
    await waitFor(() => this.output.includes(text), { timeoutMs, description: `"${text}" in ${this.options.name}'s output` });
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.isRunning) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL when it does not stop in time. Safe to call twice. */
  async stop(timeoutMs = 20_000): Promise<void> {
    if (!this.isRunning) return;
    this.child.kill('SIGTERM');
    try {
      await this.waitForExit(timeoutMs);
    } catch {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}
