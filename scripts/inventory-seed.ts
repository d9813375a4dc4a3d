// `npm run inventory:seed [file.json]`: sets demo stock in inventory's database (local-seed.ts).
import { parseCommandLine } from '@tools/local-stack';
import { runLocalSeed } from './local-seed.js';
parseCommandLine({
  name: 'inventory:seed',
  usage: 'npm run inventory:seed --',
  summary: "Sets demo stock in inventory's database (the file's SKUs and quantities, or the built-in demo stock).",
  flags: {},
  positionals: '[file.json]',
});

await runLocalSeed('inventory');
