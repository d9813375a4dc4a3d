// The public entry of the inventory app: what tools/, bench/, scripts/ and test/ may use of it (its
// environment schema, its root module (read, not run, by the manifest checks and the OpenAPI lint), the head of its OpenAPI document, its data source with its migrations, its crash windows, and what it consumes and produces),
// imported as `@apps/inventory`. Everything else under apps/inventory is its own;
// test/foundation/architecture.spec.ts fails on a path into it.
export { inventoryEnv, inventoryStartChecks, type InventoryConfig } from './inventory.config.js';
export { InventoryAppModule } from './inventory-app.module.js';
export { inventoryApiDocs } from './inventory.api-docs.js';
export { inventoryConsumes } from './inventory.consumes.js';
export { inventoryProduces } from './inventory.produces.js';
export { createInventoryDataSource } from './inventory.data-source.js';
export { InventoryFailpoints } from './inventory.failpoints.js';
