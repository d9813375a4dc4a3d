import { runMigrateCommand } from '@app/database';
import { createInventoryDataSource } from './inventory.data-source.js';

runMigrateCommand('inventory', createInventoryDataSource);
