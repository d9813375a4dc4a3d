import { runMigrateCommand } from '@libs/database';
import { createOrdersDataSource } from './orders.data-source.js';

runMigrateCommand('orders', createOrdersDataSource);
