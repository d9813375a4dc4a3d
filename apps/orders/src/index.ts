// The public entry of the orders app for local tooling (service catalog, AsyncAPI document): its
// configuration schema and what it consumes. Nothing else of the app is reachable from outside.
export { ordersEnv } from './orders.config.js';
export { ordersConsumes } from './orders.consumes.js';
