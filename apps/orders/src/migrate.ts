import { runMigrateCommand } from '@app/database';
import { createOrdersDataSource } from './orders.data-source.js';

runMigrateCommand('orders', createOrdersDataSource);
