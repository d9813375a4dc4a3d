import { runMigrateCommand } from '@libs/database';
import { createInventoryDataSource } from './inventory.data-source.js';

runMigrateCommand('inventory', createInventoryDataSource);
