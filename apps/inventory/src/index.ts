// The public entry of the inventory app: what tools/, bench/, scripts/ and test/ may use of it (its
// environment schema, its root module (read, not run, by the manifest checks), its data source with its migrations, its crash windows, and what it consumes),
// imported as `@apps/inventory`. Everything else under apps/inventory is its own;
// test/foundation/architecture.spec.ts fails on a path into it.
export { inventoryEnv, type InventoryConfig } from './inventory.config.js';
export { InventoryAppModule } from './inventory-app.module.js';
export { inventoryConsumes } from './inventory.consumes.js';
export { createInventoryDataSource } from './inventory.data-source.js';
export { InventoryFailpoints } from './inventory.failpoints.js';
