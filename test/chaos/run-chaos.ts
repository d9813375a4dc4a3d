// `npm run chaos -- --orders N --rate R --kill-every-ms M --seed S`: the chaos soak (see
// test/chaos/chaos-soak.ts and docs/chaos.md). Exits 1 on any violation.
import { startTestIssuer } from '@test/fixtures';
import { assertPostgresAnswers, localEnvironment, localToolingEnv, parseCommandLine } from '@tools/local-stack';
import { CHAOS_COMMAND, parseChaosArgs } from './chaos-options.js';
import { formatChaosReport, runChaosSoak } from './chaos-soak.js';

// `--help` and an unknown flag end here (exit 0 or 2), before any infrastructure is touched.
parseCommandLine(CHAOS_COMMAND);
const env = localEnvironment();
process.env.DATABASE_URL = env.DATABASE_URL;
process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
// SASL as the local `admin` user and the local producers' public keys, as under Jest (test/setup/global-setup.mjs).
Object.assign(process.env, localToolingEnv());

try {
  let options;
  try {
    options = parseChaosArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  await assertPostgresAnswers(env.DATABASE_URL!);
  // The apps verify every token against this run's issuer, as under Jest (test/setup/global-setup.mjs).
  await startTestIssuer();
  const report = await runChaosSoak(options);
  console.log(formatChaosReport(report));
  process.exit(report.violations.length > 0 ? 1 : 0);
} catch (error) {
  console.error((error as Error).stack ?? error);
  process.exit(2);
}
