import { createDataSource, dataSourceOptions, type DatabaseConfig, growingTableMigrations, skipColumnStatistics } from '@libs/database';
import {
  AddIdempotencyKeysCreatedAtIndex1764460800400,
  AddIdempotencyKeysPrincipalCreatedAtIndex1764460800710,
  CreateIdempotencyKeys1764460800000,
  IDEMPOTENCY_UNFILTERED_COLUMNS,
  IdempotencyKey,
  ScopeIdempotencyKeysByPrincipal1764460800620,
} from '@libs/idempotency';
import { Accrual } from './accruals/accrual.entity.js';
import { CreateAccruals1764460800100 } from './migrations/1764460800100-create-accruals.js';
import { CreateReversals1764460800420 } from './migrations/1764460800420-create-reversals.js';
import { AddAccrualsOrderIdUnique1764460800700 } from './migrations/1764460800700-add-accruals-order-id-unique.js';
import { TimeOrderedAccrualIds1764460800920 } from './migrations/1764460800920-time-ordered-accrual-ids.js';
import { Reversal } from './reversals/reversal.entity.js';

const loyaltyEntities = [Accrual, Reversal, IdempotencyKey];
/** The tables that grow with traffic: vacuumed by row count and analysed from a sample (growingTableMigrations). */
const GROWING_TABLES = ['accruals', 'reversals', 'idempotency_keys'];
const loyaltyMigrations = [
  CreateIdempotencyKeys1764460800000,
  CreateAccruals1764460800100,
  AddIdempotencyKeysCreatedAtIndex1764460800400,
  CreateReversals1764460800420,
  ScopeIdempotencyKeysByPrincipal1764460800620,
  AddAccrualsOrderIdUnique1764460800700,
  AddIdempotencyKeysPrincipalCreatedAtIndex1764460800710,
  ...growingTableMigrations(GROWING_TABLES),
  skipColumnStatistics(IDEMPOTENCY_UNFILTERED_COLUMNS),
  TimeOrderedAccrualIds1764460800920,
];

export function createLoyaltyDataSource(config: DatabaseConfig) {
  return createDataSource(
    dataSourceOptions(config, { entities: loyaltyEntities, migrations: loyaltyMigrations, applicationName: 'loyalty' }),
  );
}
