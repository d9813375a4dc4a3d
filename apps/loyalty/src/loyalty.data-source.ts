import { createDataSource, dataSourceOptions, type DatabaseConfig, growingTableMigrations, skipColumnStatistics } from '@libs/database';
import { IDEMPOTENCY_UNFILTERED_COLUMNS, idempotencyMigrations, IdempotencyKey } from '@libs/idempotency';
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
  ...idempotencyMigrations,
  CreateAccruals1764460800100,
  CreateReversals1764460800420,
  AddAccrualsOrderIdUnique1764460800700,
  ...growingTableMigrations(GROWING_TABLES),
  skipColumnStatistics(IDEMPOTENCY_UNFILTERED_COLUMNS),
  TimeOrderedAccrualIds1764460800920,
];

export function createLoyaltyDataSource(config: DatabaseConfig) {
  return createDataSource(
    dataSourceOptions(config, { entities: loyaltyEntities, migrations: loyaltyMigrations, applicationName: 'loyalty' }),
  );
}
