// The public entry of the loyalty app: what tools/, bench/, scripts/ and test/ may use of it (its
// environment schema, its root module (read, not run, by the manifest checks and the OpenAPI lint), the head of its OpenAPI document, its data source with its migrations, and its crash windows), imported as `@apps/loyalty`. Everything
// else under apps/loyalty is its own; test/foundation/architecture.spec.ts fails on a path into it.
export { loyaltyEnv, loyaltyStartChecks, type LoyaltyConfig } from './loyalty.config.js';
export { LoyaltyAppModule } from './loyalty-app.module.js';
export { loyaltyApiDocs } from './loyalty.api-docs.js';
export { createLoyaltyDataSource } from './loyalty.data-source.js';
export { LoyaltyFailpoints } from './loyalty.failpoints.js';
