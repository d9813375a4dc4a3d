import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type TestInfrastructure } from '@test/fixtures';
import { findRepoRoot, NodeProcess } from '@tools/local-stack';

/** What one `npm run ops -- ...` call printed, and how it exited. */
export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built operator tool (`node dist/scripts/ops.js ...args`, what `npm run ops` runs after
 * building) as its own process against the test's Postgres server and Kafka, and collects its output.
 * Like a shell on this machine, it names no Kafka credentials or signing keys: ops takes the local
 * ones (the `ops` principal); `env` adds or overrides variables.
 */
export function runOps(
  infrastructure: TestInfrastructure,
  args: string[],
  timeoutMs = 120_000,
  env: Record<string, string> = {},
): Promise<OpsRun> {
  const root = process.env.TEST_DIST_DIR || join(findRepoRoot(), 'dist');
  const entry = join(root, 'scripts', 'ops.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`node scripts/build.mjs\` before these tests`);
  return NodeProcess.outcome({
    entry,
    args,
    cwd: findRepoRoot(),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: infrastructure.serverUrl,
      KAFKA_BROKERS: infrastructure.brokers.join(','),
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      ...env,
    },
    timeoutMs,
  });
}
