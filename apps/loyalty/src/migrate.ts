import { runMigrateCommand } from '@app/database';
import { createLoyaltyDataSource } from './loyalty.data-source.js';

runMigrateCommand('loyalty', createLoyaltyDataSource);
