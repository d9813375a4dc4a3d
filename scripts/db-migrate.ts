// `npm run db:migrate`: creates each service's database when missing and applies its migrations,
// against DATABASE_URL (default: the local server, see tools/local-stack/src/environment/local-defaults.ts).
import { loadDotEnv } from '@libs/config';
import {
  assertPostgresAnswers,
  findRepoRoot,
  localEnvironment,
  partitionByPresence,
  runMigrations,
  parseCommandLine,
} from '@tools/local-stack';
parseCommandLine({
  name: 'db:migrate',
  usage: 'npm run db:migrate --',
  summary: "Creates each service's database when missing and applies its migrations, against DATABASE_URL.",
  flags: {},
});

const repoRoot = findRepoRoot();
// `.env` first (when present): local tooling and the apps read the same file.
loadDotEnv();
const env = localEnvironment();
const { present, absent } = partitionByPresence(repoRoot);
for (const service of absent) console.log(`[db:migrate] ${service.name}: skipped, apps/${service.name}/src has no main.ts/migrate.ts yet`);
try {
  await assertPostgresAnswers(env.DATABASE_URL!);
  await runMigrations(present, { env, cwd: repoRoot });
} catch (error) {
  console.error(`[db:migrate] ${(error as Error).message}`);
  process.exitCode = 1;
}
