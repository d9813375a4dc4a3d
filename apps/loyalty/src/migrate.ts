import { bootstrapOrExit, loadConfig } from '@app/config';
import { databaseEnv, migrateDatabase } from '@app/database';
import { createLoyaltyDataSource } from './loyalty.data-source.js';

bootstrapOrExit('loyalty:migrate', async () => {
  const config = loadConfig(databaseEnv('loyalty'));
  const applied = await migrateDatabase(createLoyaltyDataSource(config), config.DATABASE_URL, config.DATABASE_NAME);
  console.log(`[loyalty:migrate] ${config.DATABASE_NAME}: ${applied.length ? applied.join(', ') : 'up to date'}`);
});
