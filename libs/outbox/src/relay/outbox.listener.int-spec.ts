import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, databaseUrl } from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, waitFor } from '@tools/test-support';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import { OutboxListener } from './outbox.listener.js';
import { OUTBOX_CHANNEL } from '../write/outbox.writer.js';

/** The LISTEN connection never leaks and never doubles. Real Postgres. */
const { serverUrl } = testInfrastructure();

describe('OutboxListener lifecycle (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let admin: pg.Client;

  /** LISTEN connections open on the test database, as Postgres itself counts them. */
  const listenerConnections = async () =>
    Number(
      (
        await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'outbox-listener'", [
          database,
        ])
      ).rows[0].n,
    );

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_listener');
    dataSource = await createDataSource({ serverUrl, database, entities: [OutboxMessage], migrations: [] }).initialize();
    admin = new pg.Client({ connectionString: databaseUrl(serverUrl, database), application_name: 'test-admin' });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when stopped while it is still connecting, then no LISTEN connection is left behind', async () => {
    const listener = new OutboxListener(dataSource);
    const starting = listener.start(() => undefined);
    await listener.stop();
    await starting;
    // The connect that was in flight completes (or fails) after stop(); either way it must close.
    await waitFor(async () => (await listenerConnections()) === 0, { timeoutMs: 10_000, description: 'no listener connection' });
    expect(listener.listening).toBe(0);
  });

  it('when its connection is killed, then exactly one listener comes back and each NOTIFY wakes it once', async () => {
    const listener = new OutboxListener(dataSource);
    let notified = 0;
    await listener.start(() => (notified += 1));
    try {
      await waitFor(async () => (await listenerConnections()) === 1, { timeoutMs: 10_000, description: 'the listener connection' });
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'outbox-listener'",
        [database],
      );

      // The reconnect notifies once itself (rows committed while it was away), then listens.
      await waitFor(async () => listener.listening === 1 && (await listenerConnections()) === 1 && notified >= 2, {
        timeoutMs: 15_000,
        description: 'the listener back after the kill',
      });
      const before = notified;
      await admin.query(`NOTIFY ${OUTBOX_CHANNEL}`);
      await waitFor(() => notified > before, { timeoutMs: 5000, description: 'the NOTIFY delivered' });
      // A second notify makes a doubled listener visible: two clients would count two per NOTIFY.
      await admin.query(`NOTIFY ${OUTBOX_CHANNEL}, 'again'`);
      await waitFor(() => notified >= before + 2, { timeoutMs: 5000, description: 'the second NOTIFY delivered' });
      expect(notified - before).toBe(2);
      expect(await listenerConnections()).toBe(1);
    } finally {
      await listener.stop();
    }
    await waitFor(async () => (await listenerConnections()) === 0, { timeoutMs: 10_000, description: 'no listener connection after stop' });
  });
});
