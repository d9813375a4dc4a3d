import { runMigrateCommand } from '@libs/database';
import { createLoyaltyDataSource } from './loyalty.data-source.js';

runMigrateCommand('loyalty', createLoyaltyDataSource);
