import { batchedCallsLayer, commandLayers, concurrentCallsLayer } from '@libs/commands';
import { type ServiceProcess, type TestServices } from '@test/fixtures';
import { layerAloneSetting, type LayerSetting, layerSettings } from '@tools/test-support';

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

/**
 * The settings the loyalty suites pass under: the defaults, and every commands layer off (the
 * dispatcher's core alone). Off, a claim's calls run one after the other, so its lease grows to a
 * request timeout per claimed command; claims of 8 keep the lease a killed inventory leaves behind
 * within the suites' deadlines, as 8 calls at once keep it by default.
 */
export const LOYALTY_LAYER_SETTINGS: readonly LayerSetting[] = layerSettings(commandLayers).map(withCallsOneByOne);

/** The batched-calls layer's own suite: the defaults, and the layer on the core alone. */
export const LOYALTY_BATCH_SETTINGS: readonly LayerSetting[] = [
  LOYALTY_LAYER_SETTINGS[0],
  withCallsOneByOne(layerAloneSetting(commandLayers, batchedCallsLayer)),
];

function withCallsOneByOne(setting: LayerSetting): LayerSetting {
  const oneByOne = setting.env[concurrentCallsLayer.switch] === 'false';
  return oneByOne ? { ...setting, env: { ...setting.env, LOYALTY_DISPATCH_BATCH_SIZE: '8' } } : setting;
}

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
