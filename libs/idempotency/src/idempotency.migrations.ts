import { AddIdempotencyKeysCreatedAtIndex1764460800400 } from './add-idempotency-keys-created-at-index.migration.js';
import { AddIdempotencyKeysPrincipalCreatedAtIndex1764460800710 } from './add-idempotency-keys-principal-created-at-index.migration.js';
import { CreateIdempotencyKeys1764460800000 } from './create-idempotency-keys.migration.js';
import { ScopeIdempotencyKeysByPrincipal1764460800620 } from './scope-idempotency-keys-by-principal.migration.js';

/**
 * The migrations of `idempotency_keys`, one list for every data source that stores keys: an app
 * spreads it into its own migrations, and a new migration of the table reaches them all. TypeORM
 * runs migrations in timestamp order wherever they are listed, so these interleave with the app's.
 */
export const idempotencyMigrations = [
  CreateIdempotencyKeys1764460800000,
  AddIdempotencyKeysCreatedAtIndex1764460800400,
  ScopeIdempotencyKeysByPrincipal1764460800620,
  AddIdempotencyKeysPrincipalCreatedAtIndex1764460800710,
] as const;
