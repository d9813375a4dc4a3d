import { runNodeScript } from '@app/testing';
import { migrateEntry, type ServiceDescriptor } from './service-catalog.js';

export interface RunMigrationsOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal?: AbortSignal;
}

/**
 * Runs each service's `migrate` entry in its own process, one after the other, and prints what it
 * says. Stops at the first failure and rejects with that service's full output. Separate processes,
 * not an import: the entries are exactly what the container runs, so local start-up tests them too.
 */
export async function runMigrations(services: readonly ServiceDescriptor[], options: RunMigrationsOptions): Promise<void> {
  for (const service of services) {
    let output: string;
    try {
      output = await runNodeScript(migrateEntry(service), options);
    } catch (error) {
      throw new Error(`migrations of ${service.name} failed: ${(error as Error).message}`);
    }
    // The migrate entry prefixes its own lines (`[orders:migrate] ...`); print them unchanged.
    if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  }
}
