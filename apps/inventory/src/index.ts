// The public entry of the inventory app for local tooling (service catalog, AsyncAPI document): its
// configuration schema and what it consumes. Nothing else of the app is reachable from outside.
export { inventoryEnv } from './inventory.config.js';
export { inventoryConsumes } from './inventory.consumes.js';
