import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { createDataSource, migrateDatabase, RetentionJob } from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { AddIdempotencyKeysCreatedAtIndex1764460800400 } from './add-idempotency-keys-created-at-index.migration.js';
import { CreateIdempotencyKeys1764460800000 } from './create-idempotency-keys.migration.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { idempotencyRetention } from './idempotency.cleanup.js';
import { idempotencyEnv } from './idempotency.config.js';

/** `idempotency_keys` no longer grows for ever. Real Postgres. */
const { serverUrl } = testInfrastructure();
const DAY_MS = 24 * 3_600_000;
/** An app's quota defaults (orders' and loyalty's differ); retention and cleanup are the same for both. */
const QUOTA = { keysPerCallerMax: 1000, keysWindowMs: 3_600_000 };

describe('idempotencyRetention: the retention job (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let cleanup: RetentionJob;

  const insert = (key: string, ageMs: number) =>
    dataSource.query(
      `INSERT INTO idempotency_keys (key, request_fingerprint, response_status, response_body, created_at)
       VALUES ($1, 'f', 201, '{}'::json, now() - make_interval(secs => $2::float / 1000))`,
      [key, ageMs],
    );
  const keys = async () =>
    (await dataSource.query<{ key: string }[]>('SELECT key FROM idempotency_keys ORDER BY key')).map((row) => row.key);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'idempotency_cleanup');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [IdempotencyKey],
      migrations: [CreateIdempotencyKeys1764460800000, AddIdempotencyKeysCreatedAtIndex1764460800400],
      poolSize: 2,
    }).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    // Retention 30 days; batches of 2 so that 5 expired keys need several statements.
    const config = loadConfig(idempotencyEnv(QUOTA), {
      IDEMPOTENCY_RETENTION_MS: String(30 * DAY_MS),
      IDEMPOTENCY_CLEANUP_BATCH_SIZE: '2',
    });
    cleanup = new RetentionJob(dataSource, idempotencyRetention(config));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when it runs, then only keys older than the retention are deleted, in several batches', async () => {
    for (let n = 1; n <= 5; n += 1) await insert(`expired-${n}`, (30 + n) * DAY_MS);
    await insert('young', 29 * DAY_MS);
    await insert('new', 0);

    expect(await cleanup.run()).toBe(5);
    expect(await keys()).toEqual(['new', 'young']);
  });

  it("when the defaults apply, then keys are kept 24 hours, cleaned every 10 minutes, and the quota is the app's", () => {
    expect(loadConfig(idempotencyEnv(QUOTA), {})).toEqual({
      IDEMPOTENCY_RETENTION_MS: DAY_MS,
      IDEMPOTENCY_CLEANUP_CRON: '0 */10 * * * *',
      IDEMPOTENCY_CLEANUP_BATCH_SIZE: 1000,
      IDEMPOTENCY_KEYS_PER_CALLER_MAX: 1000,
      IDEMPOTENCY_KEYS_WINDOW_MS: 3_600_000,
    });
  });

  it('when the default retention applies, then a key of 25 hours is deleted and one of 23 hours kept', async () => {
    await dataSource.query('DELETE FROM idempotency_keys');
    const dayCleanup = new RetentionJob(dataSource, idempotencyRetention(loadConfig(idempotencyEnv(QUOTA), {})));
    await insert('day-old-25h', 25 * 3_600_000);
    await insert('day-old-23h', 23 * 3_600_000);
    expect(await dayCleanup.run()).toBe(1);
    expect(await keys()).toEqual(['day-old-23h']);
  });

  it('when a quota variable is malformed or out of bounds, then the configuration is refused naming each', () => {
    expect(() => loadConfig(idempotencyEnv(QUOTA), { IDEMPOTENCY_KEYS_PER_CALLER_MAX: '0', IDEMPOTENCY_KEYS_WINDOW_MS: '1m' })).toThrow(
      /IDEMPOTENCY_KEYS_PER_CALLER_MAX[\s\S]*IDEMPOTENCY_KEYS_WINDOW_MS|IDEMPOTENCY_KEYS_WINDOW_MS[\s\S]*IDEMPOTENCY_KEYS_PER_CALLER_MAX/,
    );
  });
});
