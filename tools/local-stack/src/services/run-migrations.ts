import { findRepoRoot } from '../environment/repo-root.js';
import { NodeProcess } from '../processes/node-process.js';
import { assertTestDatabaseName } from '@tools/test-support';
import { localDatabaseName } from '../postgres/local-databases.env.js';
import { compiledEntry } from './compiled-entry.js';
import { migrateEntry, type ServiceDescriptor, type ServiceName } from './service-catalog.js';

export interface RunMigrationsOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal?: AbortSignal;
}

/**
 * Runs each service's `migrate` entry in its own process, one after the other, on the database the
 * local tooling gives it ({@link localDatabaseName}), and prints what it says. Stops at the first failure and rejects with that service's full output. Separate processes,
 * not an import: the entries are exactly what the container runs, so local start-up tests them too.
 */
export async function runMigrations(services: readonly ServiceDescriptor[], options: RunMigrationsOptions): Promise<void> {
  for (const service of services) {
    let output: string;
    try {
      const env = { ...options.env, DATABASE_NAME: localDatabaseName(service.name, options.env) };
      output = await NodeProcess.run({ entry: migrateEntry(service), ...options, env });
    } catch (error) {
      throw new Error(`migrations of ${service.name} failed: ${(error as Error).message}`);
    }
    // The migrate entry prefixes its own lines (`[orders:migrate] ...`); print them unchanged.
    if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  }
}

/**
 * Applies `service`'s migrations to `database` (created when missing) with its real `migrate` entry
 * point, quietly: for a throw-away database (its name must contain `test`) of a test or benchmark.
 */
export async function migrateServiceDatabase(service: ServiceName, serverUrl: string, database: string): Promise<void> {
  assertTestDatabaseName(database);
  await NodeProcess.run({
    entry: compiledEntry(service, 'migrate'),
    cwd: findRepoRoot(),
    env: { PATH: process.env.PATH, DATABASE_URL: serverUrl, DATABASE_NAME: database },
  });
}
