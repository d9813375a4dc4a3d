// `npm run inventory:seed [file.json]`: sets demo stock in inventory's database, with the local
// defaults of npm start (the app's own seed entry, like its server, has no default DATABASE_URL).
import { loadDotEnv } from '@app/config';
import { spawnSync } from 'node:child_process';
import { findRepoRoot, localEnvironment } from '@tools/local-stack';

const result = spawnSync(process.execPath, ['dist/apps/inventory/src/seed.js', ...process.argv.slice(2)], {
  cwd: findRepoRoot(),
  env: (loadDotEnv(), localEnvironment()),
  stdio: 'inherit',
});
process.exitCode = result.status ?? 1;
