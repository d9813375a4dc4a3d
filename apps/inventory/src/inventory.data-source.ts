import { commandsUnfilteredColumns, createCommandsTable } from '@libs/commands';
import { createDataSource, dataSourceOptions, type DatabaseConfig, growingTableMigrations, skipColumnStatistics } from '@libs/database';
import {
  CreateInboxMessages1764460800020,
  CreateInboxWorkMarks1764460800025,
  INBOX_UNFILTERED_COLUMNS,
  InboxMessage,
  PartitionInboxMessages1764460801010,
} from '@libs/inbox';
import {
  AddOutboxPendingRetryIndex1764460800410,
  CreateOutboxMessages1764460800010,
  OUTBOX_UNFILTERED_COLUMNS,
  OutboxMessage,
  PartitionOutboxMessages1764460801000,
} from '@libs/outbox';
import { CreateStock1764460800300 } from './migrations/1764460800300-create-stock.js';
import { CreateCancelledOrders1764460800320 } from './migrations/1764460800320-create-cancelled-orders.js';
import { AddLoyaltyCommandAccrualColumns1764460800310 } from './migrations/1764460800310-add-loyalty-command-accrual-columns.js';
import { AddReservationLoyaltyPoints1764460800430 } from './migrations/1764460800430-add-reservation-loyalty-points.js';
import { AddCancelledOrdersCustomers1764460800450 } from './migrations/1764460800450-add-cancelled-orders-customers.js';
import { Reservation } from './reservations/reservation.entity.js';
import { LOYALTY_COMMANDS_TABLE } from './reservations/reserve-stock/loyalty-accrual.command.js';
import { StockItem } from './stock/stock-item.entity.js';

// loyalty_commands has no entity: @libs/commands creates it (createCommandsTable) and reads and writes
// it with SQL, by the name the app gives.
const inventoryEntities = [StockItem, Reservation, OutboxMessage, InboxMessage];
/** The tables that grow with traffic: vacuumed by row count and analysed from a sample (growingTableMigrations). */
const GROWING_TABLES = ['reservations', 'cancelled_orders', LOYALTY_COMMANDS_TABLE, 'outbox_messages', 'inbox_messages'];
const inventoryMigrations = [
  CreateOutboxMessages1764460800010,
  CreateInboxMessages1764460800020,
  CreateInboxWorkMarks1764460800025,
  createCommandsTable(LOYALTY_COMMANDS_TABLE),
  CreateStock1764460800300,
  AddLoyaltyCommandAccrualColumns1764460800310,
  CreateCancelledOrders1764460800320,
  AddOutboxPendingRetryIndex1764460800410,
  AddReservationLoyaltyPoints1764460800430,
  AddCancelledOrdersCustomers1764460800450,
  ...growingTableMigrations(GROWING_TABLES),
  skipColumnStatistics({
    ...OUTBOX_UNFILTERED_COLUMNS,
    ...INBOX_UNFILTERED_COLUMNS,
    ...commandsUnfilteredColumns(LOYALTY_COMMANDS_TABLE),
    reservations: ['items'],
  }),
  PartitionOutboxMessages1764460801000,
  PartitionInboxMessages1764460801010,
];

export function createInventoryDataSource(config: DatabaseConfig) {
  return createDataSource(
    dataSourceOptions(config, { entities: inventoryEntities, migrations: inventoryMigrations, applicationName: 'inventory' }),
  );
}
