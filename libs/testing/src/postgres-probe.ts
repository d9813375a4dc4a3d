import pg from 'pg';
import { databaseUrl } from '@app/database';

/** Throws an error that says how to fix it when no Postgres answers at `serverUrl`. */
export async function assertPostgresAnswers(serverUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres'), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL does not answer at DATABASE_URL=${serverUrl} (${(error as Error).message}). ` +
        'Start a server (docker compose up -d postgres, or your local PostgreSQL) or set DATABASE_URL.',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
