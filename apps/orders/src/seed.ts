import { readFileSync } from 'node:fs';
import { bootstrapOrExit, loadConfig } from '@libs/config';
import { OrderLimits, SKU_PATTERN } from '@libs/contracts';
import { databaseEnv, TransactionContext } from '@libs/database';
import { createOrdersDataSource } from './orders.data-source.js';
import { PriceList } from './products/price-list.js';

/**
 * Demo prices (cents) used when no argument is given. `npm run orders:seed [file.json]` reads
 * `{"SKU-1": 1050, ...}` from a file, `npm run orders:seed -- SKU-1=1050 SKU-2=99` takes pairs. The
 * SKUs are those of `npm run inventory:seed`, so every SKU in stock can be ordered.
 */
const DEFAULT_PRICES: Record<string, number> = { 'SKU-APPLE': 1050, 'SKU-BANANA': 250, 'SKU-CHERRY': 600, 'SKU-RARE': 99_900 };

function readPrices(args: string[]): Record<string, number> {
  if (args.length === 0) return DEFAULT_PRICES;
  const pairs = args.every((arg) => arg.includes('='));
  const source = pairs ? 'arguments' : args[0];
  const prices: Record<string, number> = pairs
    ? Object.fromEntries(args.map((arg) => [arg.slice(0, arg.indexOf('=')), Number(arg.slice(arg.indexOf('=') + 1))]))
    : (JSON.parse(readFileSync(args[0], 'utf8')) as Record<string, number>);
  const bad = Object.entries(prices).filter(
    ([sku, cents]) => !SKU_PATTERN.test(sku) || !Number.isSafeInteger(cents) || cents < 0 || cents > OrderLimits.unitPriceCentsMax,
  );
  if (bad.length > 0)
    throw new Error(`${source}: invalid entries ${bad.map(([sku]) => sku).join(', ')} (want {"SKU-1": 1050, ...} in cents)`);
  return prices;
}

bootstrapOrExit('orders:seed', async () => {
  const config = loadConfig(databaseEnv('orders'));
  const prices = readPrices(process.argv.slice(2));
  const dataSource = await createOrdersDataSource(config).initialize();
  try {
    await new PriceList(new TransactionContext(dataSource)).setPrices(
      Object.entries(prices).map(([sku, unitPriceCents]) => ({ sku, unitPriceCents })),
    );
  } finally {
    await dataSource.destroy();
  }
  console.log(
    `[orders:seed] ${config.DATABASE_NAME}: ${Object.entries(prices)
      .map(([sku, cents]) => `${sku}=${cents}`)
      .join(', ')}`,
  );
});
