import { env } from '@libs/config';
import type { ServiceName } from '../services/service-catalog.js';

const databaseName = (service: ServiceName) =>
  env.string({
    description: `${service}'s database on DATABASE_URL for the local tooling (npm start, npm run dev, db:migrate, ops, the seeds, demo); a second clone on the same Postgres sets its own`,
    default: service,
  });

/**
 * Each app's database as the local tooling names it. One `DATABASE_NAME` in `.env` would give all
 * three apps the same database, and two clones on one server each other's: so the tooling reads a
 * variable per app and hands each app its own `DATABASE_NAME`.
 */
export const localDatabasesEnv = {
  ORDERS_DATABASE_NAME: databaseName('orders'),
  INVENTORY_DATABASE_NAME: databaseName('inventory'),
  LOYALTY_DATABASE_NAME: databaseName('loyalty'),
};

/** The database the local tooling gives `service`: its `<APP>_DATABASE_NAME`, else the app's name. */
export function localDatabaseName(service: ServiceName, source: NodeJS.ProcessEnv = process.env): string {
  return source[`${service.toUpperCase()}_DATABASE_NAME`]?.trim() || service;
}
