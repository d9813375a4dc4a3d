// `npm run orders:seed [file.json | SKU=cents ...]`: sets demo prices in orders' price list (local-seed.ts).
import { parseCommandLine } from '@tools/local-stack';
import { runLocalSeed } from './local-seed.js';
parseCommandLine({
  name: 'orders:seed',
  usage: 'npm run orders:seed --',
  summary: "Sets demo prices in orders' price list (a file, SKU=cents pairs, or the built-in demo prices).",
  flags: {},
  positionals: '[file.json | SKU=cents ...]',
});

await runLocalSeed('orders');
