import { execFile } from 'node:child_process';
import { existsSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { findRepoRoot } from './repo-root.js';
import { uniqueName } from './unique-name.js';
import { waitFor } from './wait-for.js';

/**
 * Alive, or still dying. A killed broker is not our child, so whoever adopted it may reap it late:
 * a zombie counts as dead, but only once its last thread is gone (the main thread of a JVM turns
 * zombie while its other threads still exit and hold the sockets).
 */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const zombie = /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return !zombie || readdirSync(`/proc/${pid}/task`).length > 1;
  } catch {
    return false;
  }
}

/** True when nothing accepts a TCP connection on 127.0.0.1:`port`. */
function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/**
 * A second, private Kafka broker for a test that needs "the broker is down": stopping it leaves
 * the shared broker (and every test using it) alone. Runs `scripts/kafka-local.sh` with its own
 * ports and state directory under `.local/`.
 */
export class PrivateKafka {
  private constructor(
    private readonly repoRoot: string,
    private readonly dir: string,
    readonly port: number,
    private readonly controllerPort: number,
  ) {}

  /** `['127.0.0.1:<port>']`, for `KAFKA_BROKERS`. */
  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  /** Creates the state directory and starts the broker (a few seconds; resolves once it is ready). */
  static async start(): Promise<PrivateKafka> {
    const repoRoot = findRepoRoot();
    const dir = join(repoRoot, '.local', uniqueName('kafka-test'));
    mkdirSync(dir, { recursive: true });
    // Reuse the shared broker's jars when present, so no Maven fetch per test run.
    const sharedLibs = join(repoRoot, '.local', 'kafka', 'libs');
    const sharedStamp = join(repoRoot, '.local', 'kafka', 'libs.version');
    if (existsSync(sharedLibs) && existsSync(sharedStamp)) {
      symlinkSync(sharedLibs, join(dir, 'libs'));
      copyFileSync(sharedStamp, join(dir, 'libs.version'));
    }
    const port = await freePort();
    let controllerPort = await freePort();
    while (controllerPort === port) controllerPort = await freePort();
    const broker = new PrivateKafka(repoRoot, dir, port, controllerPort);
    try {
      await broker.resume();
    } catch (error) {
      await broker.destroy();
      throw error;
    }
    return broker;
  }

  private async script(command: 'start' | 'stop'): Promise<void> {
    await promisify(execFile)('bash', [join(this.repoRoot, 'scripts/kafka-local.sh'), command], {
      cwd: this.repoRoot,
      env: {
        ...process.env,
        KAFKA_LOCAL_PORT: String(this.port),
        KAFKA_LOCAL_CONTROLLER_PORT: String(this.controllerPort),
        KAFKA_LOCAL_DIR: this.dir,
      },
      timeout: 120_000,
    });
  }

  /** Starts it again on the same ports and data (topics and records survive). */
  async resume(): Promise<void> {
    await this.script('start');
  }

  /** Stops it cleanly (SIGTERM); clients see connection errors until {@link resume}. */
  async pause(): Promise<void> {
    await this.script('stop');
  }

  /**
   * Freezes the broker process (SIGSTOP): connections stay open and requests get no answer, as
   * when a machine hangs or a network partition drops packets. Worse for clients than a stop,
   * which they see at once as refused connections. {@link thaw} lets it go on.
   */
  freeze(): void {
    process.kill(this.pid(), 'SIGSTOP');
  }

  /** Resumes a {@link freeze}d broker (SIGCONT). */
  thaw(): void {
    process.kill(this.pid(), 'SIGCONT');
  }

  /**
   * SIGKILL of the broker JVM: no clean shutdown, no flushed state, its logs recovered on the next
   * {@link resume}. Resolves once the process is gone (it is not our child, so its exit is polled).
   */
  async kill(): Promise<void> {
    const pid = this.pid();
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !processAlive(pid), { timeoutMs: 30_000, intervalMs: 50, description: `broker pid ${pid} to die` });
    // The start script takes an open port for a running broker: wait until the old one lets go.
    await waitFor(() => portClosed(this.port), { timeoutMs: 30_000, intervalMs: 50, description: `port ${this.port} to close` });
  }

  /** True while the broker process started by {@link resume} is alive. */
  isRunning(): boolean {
    try {
      return processAlive(this.pid());
    } catch {
      return false;
    }
  }

  private pid(): number {
    const pid = Number(readFileSync(join(this.dir, 'broker.pid'), 'utf8').replace(/\D/g, ''));
    if (!pid) throw new Error(`no broker pid in ${this.dir}`);
    return pid;
  }

  /** Stops it and deletes its state directory. Safe to call twice. */
  async destroy(): Promise<void> {
    // A frozen broker ignores SIGTERM until it runs again.
    try {
      this.thaw();
    } catch {
      // not running
    }
    await this.script('stop').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
