// `npm run orders:seed [file.json | SKU=cents ...]`: sets demo prices in orders' price list, with the local
// defaults of npm start (the app's own seed entry, like its server, has no default DATABASE_URL).
import { loadDotEnv } from '@app/config';
import { compiledEntry, findRepoRoot, localEnvironment, NodeProcess } from '@tools/local-stack';

const { code, stdout, stderr } = await NodeProcess.outcome({
  entry: compiledEntry('orders', 'seed'),
  args: process.argv.slice(2),
  cwd: findRepoRoot(),
  env: (loadDotEnv(), localEnvironment()),
});
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code ?? 1;
