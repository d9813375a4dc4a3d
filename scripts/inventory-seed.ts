// `npm run inventory:seed [file.json]`: sets demo stock in inventory's database, with the local
// defaults of npm start (the app's own seed entry, like its server, has no default DATABASE_URL).
import { loadDotEnv } from '@app/config';
import { compiledEntry, findRepoRoot, localEnvironment, NodeProcess, parseCommandLine } from '@tools/local-stack';
parseCommandLine({
  name: 'inventory:seed',
  usage: 'npm run inventory:seed --',
  summary: "Sets demo stock in inventory's database (the file's SKUs and quantities, or the built-in demo stock).",
  flags: {},
  positionals: '[file.json]',
});

const { code, stdout, stderr } = await NodeProcess.outcome({
  entry: compiledEntry('inventory', 'seed'),
  args: process.argv.slice(2),
  cwd: findRepoRoot(),
  env: (loadDotEnv(), localEnvironment()),
});
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code ?? 1;
