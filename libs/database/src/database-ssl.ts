import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { ConfigValidationError } from '@libs/config';
import type { DatabaseConfig } from './database.config.js';

/** What pg takes as `ssl`: false for plaintext, or the TLS options of each connection. */
export type DatabaseSsl = false | ConnectionOptions;

/**
 * pg's `ssl` option from `DATABASE_SSL_MODE` and `DATABASE_SSL_CA_FILE`, named after libpq's
 * `sslmode` so operators read them the same way:
 * - `disable`: plaintext (the default: the local and compose Postgres have no certificate);
 * - `require`: encrypted, the server's certificate not checked (stops passive sniffing only);
 * - `verify-ca`: encrypted, the certificate must chain to the CA, any host name;
 * - `verify-full`: `verify-ca` and the host name must match the certificate (what production should use).
 * The CA file (PEM) is read once, here; without one, verification uses the system's CAs.
 * Throws a {@link ConfigValidationError} naming the variable when the file is set for `disable`
 * or `require` (it would be silently ignored) or cannot be read.
 */
export function databaseSsl(
  config: Partial<Pick<DatabaseConfig, 'DATABASE_SSL_MODE' | 'DATABASE_SSL_CA_FILE'>>,
  readFile: (path: string) => Buffer = readFileSync,
): DatabaseSsl {
  const mode = config.DATABASE_SSL_MODE ?? 'disable';
  const caFile = config.DATABASE_SSL_CA_FILE ?? '';
  if (caFile && (mode === 'disable' || mode === 'require')) {
    throw new ConfigValidationError([
      `DATABASE_SSL_CA_FILE is set but DATABASE_SSL_MODE=${mode} does not verify: use verify-ca or verify-full`,
    ]);
  }
  if (mode === 'disable') return false;
  if (mode === 'require') return { rejectUnauthorized: false };
  let ca: Buffer | undefined;
  if (caFile) {
    try {
      ca = readFile(caFile);
    } catch (error) {
      throw new ConfigValidationError([
        `DATABASE_SSL_CA_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      ]);
    }
  }
  return {
    rejectUnauthorized: true,
    ...(ca && { ca: [ca] }),
    // verify-ca: the chain is checked, the host name is not (libpq's meaning).
    ...(mode === 'verify-ca' && { checkServerIdentity: () => undefined }),
  };
}
