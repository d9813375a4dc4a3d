import { readFileSync } from 'node:fs';
import { bootstrapOrExit, loadConfig } from '@libs/config';
import { SKU_PATTERN } from '@libs/contracts';
import { databaseEnv, TransactionContext } from '@libs/database';
import { createInventoryDataSource } from './inventory.data-source.js';
import { SetStockService } from './stock/set-stock/set-stock.service.js';

/** Demo stock used when no file is given: `npm run inventory:seed [file.json]`. */
const DEFAULT_STOCK: Record<string, number> = { 'SKU-APPLE': 100, 'SKU-BANANA': 100, 'SKU-CHERRY': 20, 'SKU-RARE': 1 };

function readStock(file: string | undefined): Record<string, number> {
  if (!file) return DEFAULT_STOCK;
  const stock = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  const bad = Object.entries(stock).filter(([sku, units]) => !SKU_PATTERN.test(sku) || !Number.isSafeInteger(units) || units < 0);
  if (bad.length > 0) throw new Error(`${file}: invalid entries ${bad.map(([sku]) => sku).join(', ')} (want {"SKU-1": 10, ...})`);
  return stock;
}

bootstrapOrExit('inventory:seed', async () => {
  const config = loadConfig(databaseEnv('inventory'));
  const stock = readStock(process.argv[2]);
  const dataSource = await createInventoryDataSource(config).initialize();
  try {
    const setStock = new SetStockService(new TransactionContext(dataSource));
    for (const [sku, available] of Object.entries(stock)) await setStock.set(sku, available);
  } finally {
    await dataSource.destroy();
  }
  console.log(
    `[inventory:seed] ${config.DATABASE_NAME}: ${Object.entries(stock)
      .map(([sku, n]) => `${sku}=${n}`)
      .join(', ')}`,
  );
});
