// `npm run <script> -- --help`, answered by scripts/npm-script.sh before anything runs. Plain
// JavaScript (no build): the answer must not depend on dist/ being current, nor change it.
//
// When the script's last command is one of the project's own programs (dist/…, scripts/…) and its
// file exists, that program prints its own help (every option, ops' subcommands); otherwise (a
// fresh clone before the first build, or tsc, eslint, jest) the line below is the help.
// test/npm-scripts-help.spec.ts fails when a package.json script has no line here.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What each package.json script takes after `--`, and what it does. */
const SCRIPT_HELP = {
  build: ['[--watch]', 'Compiles apps/, libs/, tools/, scripts/ and bench/ to dist/ with swc; --watch recompiles saved files.'],
  typecheck: ['', 'Type-checks the three TypeScript projects (tsconfig.json, scripts/, bench/); writes nothing.'],
  start: ['[--watch]', 'The whole system on this machine: Postgres, Kafka, migrations, the three apps (builds first).'],
  dev: ['', 'npm start in watch mode: saved .ts files are recompiled and the apps that use them restart.'],
  'db:migrate': ['', "Applies each app's pending migrations to its database (builds first)."],
  'kafka:local': [
    'fetch | credentials | start [NODE] | stop [NODE] | kill NODE | restart NODE | status | logs [NODE] [-f]',
    'Runs Apache Kafka without Docker (scripts/kafka-local.sh).',
  ],
  'kafka:acls': ['', "Creates the Kafka ACLs every app's principal needs, as the cluster's admin (builds first)."],
  lint: ['', 'ESLint, Prettier (check only) and knip over the repository; writes nothing.'],
  format: ['', 'Prettier --write over the repository.'],
  'format:check': ['', 'Prettier --check over the repository; writes nothing.'],
  generate: ['<schematic> <name> --project <app>', 'nest generate, then Prettier on the files it wrote.'],
  test: [
    '[jest options] [test path patterns]',
    'Typecheck, lint, build, then every Jest project (unit, integration, e2e) one worker at a time; about 30 minutes.',
  ],
  'test:unit': ['[jest options] [test path patterns]', 'The unit project only (no database, no broker); seconds.'],
  bench: ['[--quick] [--only <sections>]', 'The benchmark suite; results in bench/results/ (builds first).'],
  chaos: ['[options]', 'The chaos soak: kills processes and brokers under load and checks every invariant (builds first).'],
  'env:example': ['', 'Rewrites .env.example from the env declarations (builds first).'],
  'docs:kafka-acls': ['', 'Rewrites the ACL table of docs/security.md (builds first).'],
  'docs:reference': ['', 'Rewrites every page generated from the code: docs/configuration.md, the service pages, .env.example, ...'],
  asyncapi: ['', 'Rewrites docs/asyncapi.json from the contracts (builds first).'],
  'contracts:release': ['', "Records the contracts' current schemas as the released baseline the compatibility check compares with."],
  demo: ['[options]', 'Narrated tour of a running stack: an order, a crash and its healing (run npm start first).'],
  token: ['--sub <customer> | --admin | --service', 'Prints a bearer token from the development issuer of npm start.'],
  'inventory:seed': ['[stock.json]', "Sets inventory's stock levels (builds first)."],
  'orders:seed': ['[prices.json]', "Sets orders' price list (builds first)."],
  ops: ['<command> [options]', 'Dead letters, the outbox backlog, parked loyalty commands, topics (builds first).'],
};

/** The project's own program a command line ends with (`node [--flags] dist/x.js`, `bash scripts/x.sh`), if its file exists. */
function ownProgram(commandLine) {
  const last = commandLine.split('&&').at(-1).trim().split(/\s+/);
  const [runner, ...rest] = last;
  const file = rest.find((word) => !word.startsWith('-'));
  if (!['node', 'bash', 'sh'].includes(runner) || !file || !/^(dist|scripts)\//.test(file) || !existsSync(file)) return undefined;
  return { runner: runner === 'node' ? process.execPath : runner, args: rest };
}

const [name, commandLine = '', ...args] = process.argv.slice(2);
const program = ownProgram(commandLine);
if (program) {
  const { status } = spawnSync(program.runner, [...program.args, ...args], { stdio: 'inherit' });
  process.exit(status ?? 1);
}
const help = SCRIPT_HELP[name];
if (!help) {
  console.error(`npm run ${name || '<script>'}: no help written for this script (scripts/npm-script-help.mjs)`);
  process.exit(1);
}
const [usage, summary] = help;
console.log(`usage: npm run ${name} --${usage ? ` ${usage}` : ''}\n\n${summary}`);
