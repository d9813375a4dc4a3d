import { type TestServices } from '@test/fixtures';
import { type ServiceProcess } from '@tools/local-stack';

/**
 * Inventory's loyalty dispatcher timing for tests: poll every 100 ms, retry a failed call after
 * 100 ms, doubling up to 400 ms. The defaults (500 ms, and retries growing to 30 s) would make every
 * crash window slow to heal.
 */
export const FAST_LOYALTY_DISPATCH: Record<string, string> = {
  LOYALTY_DISPATCH_INTERVAL_MS: '100',
  LOYALTY_RETRY_BASE_MS: '100',
  LOYALTY_RETRY_MAX_MS: '400',
};

/** The two processes {@link startInventoryWithLoyalty} started and their databases. */
export interface InventoryWithLoyalty {
  inventory: ServiceProcess;
  loyalty: ServiceProcess;
  databases: { inventory: string; loyalty: string };
}

/**
 * Loyalty, then inventory calling it (`LOYALTY_BASE_URL`), as real processes, each on a new test
 * database named after `databasePrefix` (`<prefix>_loyalty`, `<prefix>_inventory`). Inventory runs
 * with {@link FAST_LOYALTY_DISPATCH}; `inventoryEnv` wins over it. Both belong to `services`,
 * which stops them and drops their databases.
 */
export async function startInventoryWithLoyalty(
  services: TestServices,
  databasePrefix: string,
  inventoryEnv: Record<string, string> = {},
): Promise<InventoryWithLoyalty> {
  const databases = {
    loyalty: await services.createDatabase(`${databasePrefix}_loyalty`),
    inventory: await services.createDatabase(`${databasePrefix}_inventory`),
  };
  const loyalty = await services.start({ service: 'loyalty', database: databases.loyalty });
  const inventory = await services.start({
    service: 'inventory',
    database: databases.inventory,
    env: { LOYALTY_BASE_URL: loyalty.baseUrl, ...FAST_LOYALTY_DISPATCH, ...inventoryEnv },
  });
  return { inventory, loyalty, databases };
}
