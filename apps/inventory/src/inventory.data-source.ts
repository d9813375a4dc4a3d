import { createDataSource, type DatabaseConfig, databaseSsl } from '@app/database';
import { CreateInboxMessages1764460800020, InboxMessage } from '@app/inbox';
import { AddOutboxPendingRetryIndex1764460800410, CreateOutboxMessages1764460800010, OutboxMessage } from '@app/outbox';
import { CreateStock1764460800300 } from './migrations/1764460800300-create-stock.js';
import { CreateLoyaltyCommands1764460800310 } from './migrations/1764460800310-create-loyalty-commands.js';
import { CreateCancelledOrders1764460800320 } from './migrations/1764460800320-create-cancelled-orders.js';
import { AddLoyaltyCommandClaims1764460800330 } from './migrations/1764460800330-add-loyalty-command-claims.js';
import { AddLoyaltyCommandTraceparent1764460800340 } from './migrations/1764460800340-add-loyalty-command-traceparent.js';
import { StoreLoyaltyCommandsAsRequests1764460800350 } from './migrations/1764460800350-store-loyalty-commands-as-requests.js';
import { Reservation } from './reservations/reservation.entity.js';
import { StockItem } from './stock/stock-item.entity.js';

// loyalty_commands has no entity: @app/commands reads and writes it with SQL, by the name the app gives.
const inventoryEntities = [StockItem, Reservation, OutboxMessage, InboxMessage];
const inventoryMigrations = [
  CreateOutboxMessages1764460800010,
  CreateInboxMessages1764460800020,
  CreateStock1764460800300,
  CreateLoyaltyCommands1764460800310,
  CreateCancelledOrders1764460800320,
  AddLoyaltyCommandClaims1764460800330,
  AddOutboxPendingRetryIndex1764460800410,
  AddLoyaltyCommandTraceparent1764460800340,
  StoreLoyaltyCommandsAsRequests1764460800350,
];

export function createInventoryDataSource(config: DatabaseConfig) {
  return createDataSource({
    serverUrl: config.DATABASE_URL,
    database: config.DATABASE_NAME,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    ssl: databaseSsl(config),
    entities: inventoryEntities,
    migrations: inventoryMigrations,
    applicationName: 'inventory',
  });
}
