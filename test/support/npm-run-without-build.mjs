// `npm` for the docs test: runs `npm run [-s] <script> [-- args]` as npm would, from package.json,
// but without the script's `node scripts/build.mjs &&` (the test runs on the build `npm test` made;
// rebuilding dist/ under running tests would break them). A script named `<app>:...` (a seed) gets
// that app's test database as DATABASE_NAME, where the docs assume the default database.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.env.DOCS_TEST_REPO_ROOT;
const [verb, ...rest] = process.argv.slice(2);
while (rest[0]?.startsWith('-') && rest[0] !== '--') rest.shift();
const [name, ...args] = rest;
if (verb !== 'run' || !name || !root) {
  console.error(`docs test npm: only "npm run <script>" is supported, got: npm ${process.argv.slice(2).join(' ')}`);
  process.exit(2);
}
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
if (!(name in scripts)) {
  console.error(`npm error Missing script: "${name}"`);
  process.exit(1);
}
let script = scripts[name].replaceAll('node scripts/build.mjs && ', '');
if (process.env.TEST_DIST_DIR) script = script.replace(/(^|\s)dist\//g, `$1${process.env.TEST_DIST_DIR}/`);
const owner = name.split(':')[0].toUpperCase();
const databaseName = name.includes(':') ? process.env[`${owner}_DATABASE_NAME`] : undefined;
const passed = args[0] === '--' ? args.slice(1) : args;
const { status, signal } = spawnSync('bash', ['-c', `${script} "$@"`, name, ...passed], {
  cwd: root,
  stdio: 'inherit',
  env: databaseName ? { ...process.env, DATABASE_NAME: databaseName } : process.env,
});
process.exit(status ?? (signal ? 1 : 0));
