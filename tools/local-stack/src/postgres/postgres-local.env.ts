import { env } from '@libs/config';

/** What the embedded Postgres of `npm start` and `npm test` reads (ensure-postgres.ts), rendered into docs/configuration.md. */
export const postgresLocalEnv = {
  POSTGRES_LOCAL_DIR: env.string({
    description: "The embedded Postgres' state directory, used when nothing answers at DATABASE_URL; empty: <repo>/.local/postgres",
    default: '',
  }),
};
