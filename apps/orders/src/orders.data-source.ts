import { createDataSource, dataSourceOptions, type DatabaseConfig, growingTableMigrations, skipColumnStatistics } from '@libs/database';
import { IDEMPOTENCY_UNFILTERED_COLUMNS, idempotencyMigrations, IdempotencyKey } from '@libs/idempotency';
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
import { CreateOrders1764460800200 } from './migrations/1764460800200-create-orders.js';
import { CreateProducts1764460800420 } from './migrations/1764460800420-create-products.js';
import { AddOrdersPendingIndex1764460800800 } from './migrations/1764460800800-add-orders-pending-index.js';
import { OrderItem } from './orders/order-item.entity.js';
import { Order } from './orders/order.entity.js';

const ordersEntities = [Order, OrderItem, OutboxMessage, InboxMessage, IdempotencyKey];
/** The tables that grow with traffic: vacuumed by row count and analysed from a sample (growingTableMigrations). */
const GROWING_TABLES = ['orders', 'order_items', 'outbox_messages', 'inbox_messages', 'idempotency_keys'];
const ordersMigrations = [
  ...idempotencyMigrations,
  CreateOutboxMessages1764460800010,
  CreateInboxMessages1764460800020,
  CreateInboxWorkMarks1764460800025,
  CreateOrders1764460800200,
  AddOutboxPendingRetryIndex1764460800410,
  CreateProducts1764460800420,
  AddOrdersPendingIndex1764460800800,
  ...growingTableMigrations(GROWING_TABLES),
  skipColumnStatistics({ ...OUTBOX_UNFILTERED_COLUMNS, ...INBOX_UNFILTERED_COLUMNS, ...IDEMPOTENCY_UNFILTERED_COLUMNS }),
  PartitionOutboxMessages1764460801000,
  PartitionInboxMessages1764460801010,
];

export function createOrdersDataSource(config: DatabaseConfig) {
  return createDataSource(dataSourceOptions(config, { entities: ordersEntities, migrations: ordersMigrations, applicationName: 'orders' }));
}
