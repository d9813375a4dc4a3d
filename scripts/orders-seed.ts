// `npm run orders:seed [file.json | SKU=cents ...]`: sets demo prices in orders' price list, with the local
// defaults of npm start (the app's own seed entry, like its server, has no default DATABASE_URL).
import { loadDotEnv } from '@app/config';
import { compiledEntry, findRepoRoot, localEnvironment, NodeProcess, parseCommandLine } from '@tools/local-stack';
parseCommandLine({
  name: 'orders:seed',
  usage: 'npm run orders:seed --',
  summary: "Sets demo prices in orders' price list (a file, SKU=cents pairs, or the built-in demo prices).",
  flags: {},
  positionals: '[file.json | SKU=cents ...]',
});

const { code, stdout, stderr } = await NodeProcess.outcome({
  entry: compiledEntry('orders', 'seed'),
  args: process.argv.slice(2),
  cwd: findRepoRoot(),
  env: (loadDotEnv(), localEnvironment()),
});
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code ?? 1;
