// `npm run generate -- <what> <name> --project <app>`: `nest generate`, then the project's Prettier
// on every file it created or updated. The schematics write double quotes and no trailing commas,
// and their `--format` ignores .prettierrc, so their output failed `npm run lint` until
// `npm run format`; this keeps the generated code in the project's style from the start.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);

if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  process.stdout.write(
    'usage: npm run generate -- <schematic> <name> --project <app> [nest generate options]\n' +
      "  runs `nest generate` with these arguments, then Prettier (the project's .prettierrc) on the files it created or updated\n" +
      '  e.g. npm run generate -- service shipping --project orders\n',
  );
  process.exit(args.length === 0 ? 2 : 0);
}

const nest = spawnSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'generate', ...args], { encoding: 'utf8' });
process.stdout.write(nest.stdout);
process.stderr.write(nest.stderr);
if (nest.status !== 0) process.exit(nest.status ?? 1);

// The schematics report each file as `CREATE <path> (<bytes> bytes)` or `UPDATE <path> (...)`.
// eslint-disable-next-line no-control-regex -- the CLI colours its report
const report = nest.stdout.replace(/\u001b\[[0-9;]*m/g, '');
const written = [...report.matchAll(/^(?:CREATE|UPDATE) (\S+) \(/gm)].map((match) => match[1]);
if (written.length === 0 || args.includes('--dry-run') || args.includes('-d')) process.exit(0);
const prettier = spawnSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--write', ...written], { stdio: 'inherit' });
process.exit(prettier.status ?? 1);
