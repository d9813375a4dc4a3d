import pg from 'pg';
import { databaseUrl } from '@libs/database';

/**
 * What to do about a failed connection. An authentication failure means a server DOES answer, so
 * "start a server" would send the user in a circle: it says where the password goes instead.
 */
export function postgresFixHint(error: Error & { code?: string }): string {
  const authentication = error.code === '28P01' || error.code === '28000' || /password|SASL|authentication/i.test(error.message);
  if (authentication) {
    return (
      'The server answers but wants a password: put it in DATABASE_URL (postgres://user:password@host:port). ' +
      "If it is this repository's compose Postgres created by an older docker-compose.yml (which required a password), " +
      'recreate it once with its data: docker compose down -v && docker compose up -d postgres.'
    );
  }
  return (
    'Start a server (docker compose up -d postgres, or your local PostgreSQL) or set DATABASE_URL. ' +
    'npm start starts its embedded server only for a URL of the local default shape (postgres://postgres@127.0.0.1:<port>, no password) where nothing listens.'
  );
}

/** Throws an error that says how to fix it when no Postgres answers at `serverUrl`. */
export async function assertPostgresAnswers(serverUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres'), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL does not accept DATABASE_URL=${serverUrl} (${(error as Error).message}). ${postgresFixHint(error as Error)}`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
