// The public entry of the orders app: what tools/, bench/, scripts/ and test/ may use of it (its
// environment schema, its root module (read, not run, by the manifest checks and the OpenAPI lint), the head of its OpenAPI document, its data source with its migrations, its crash windows, and what it consumes and produces),
// imported as `@apps/orders`. Everything else under apps/orders is its own;
// test/foundation/architecture.spec.ts fails on a path into it.
export { ordersEnv, ordersStartChecks, type OrdersConfig } from './orders.config.js';
export { OrdersAppModule } from './orders-app.module.js';
export { ordersApiDocs } from './orders.api-docs.js';
export { ordersConsumes } from './orders.consumes.js';
export { ordersProduces } from './orders.produces.js';
export { createOrdersDataSource } from './orders.data-source.js';
export { OrdersFailpoints } from './orders.failpoints.js';
