// The body of the npm seed commands: an app's own seed entry, run with the local defaults of npm
// start (the entry, like the app's server, has no default DATABASE_URL), its output passed through.
import { loadDotEnv } from '@libs/config';
import { compiledEntry, findRepoRoot, localDatabaseName, localEnvironment, NodeProcess } from '@tools/local-stack';

/** Runs `service`'s built seed entry with this command's arguments; its exit code becomes this process's. */
export async function runLocalSeed(service: 'orders' | 'inventory'): Promise<void> {
  loadDotEnv();
  const env = localEnvironment();
  const { code, stdout, stderr } = await NodeProcess.outcome({
    entry: compiledEntry(service, 'seed'),
    args: process.argv.slice(2),
    cwd: findRepoRoot(),
    env: { ...env, DATABASE_NAME: localDatabaseName(service, env) },
  });
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code ?? 1;
}
