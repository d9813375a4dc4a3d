import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import {
  createDataSource,
  DAY_MS,
  databaseUrl,
  dayPartitionName,
  defaultPartitionName,
  maintainDayPartitions,
  migrateDatabase,
  partitionsOf,
  RetentionJob,
  type RetentionPolicy,
  timeOrderedUuid,
} from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { CreateOutboxMessages1764460800010 } from '../storage/create-outbox-messages.migration.js';
import { PartitionOutboxMessages1764460801000 } from '../storage/partition-outbox-messages.migration.js';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import { outboxEnv } from '../outbox.config.js';
import { outboxRetention } from './outbox.retention.js';
import { OutboxMetrics } from '../ops/outbox.metrics.js';

const { serverUrl } = testInfrastructure();
const HOUR_MS = 3_600_000;

describe('outboxRetention: day partitions created ahead, dropped whole past retention (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let registry: Registry;
  let policy: RetentionPolicy;
  let cleanup: RetentionJob;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const partition = (daysFromToday: number) => dayPartitionName('outbox_messages', today + daysFromToday * DAY_MS);

  /** Inserts a row of id `id` created at `createdMs`, published at `publishedMs` (pending when null). */
  const insert = (label: string, id: string, createdMs: number, publishedMs: number | null) =>
    dataSource.query(
      `INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, created_at, published_at)
       VALUES ($1, 'thing', $2, 'ThingHappened', 't', $2, '{}', '{}', $3, $4)`,
      [id, label, new Date(createdMs), publishedMs === null ? null : new Date(publishedMs)],
    );
  const labels = async () =>
    (await dataSource.query<{ aggregate_id: string }[]>('SELECT aggregate_id FROM outbox_messages ORDER BY aggregate_id')).map(
      (row) => row.aggregate_id,
    );
  const gauge = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0].value;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_cleanup');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [CreateOutboxMessages1764460800010, PartitionOutboxMessages1764460801000],
      poolSize: 2,
    }).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    await dataSource.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    registry = new Registry();
    // Retention one day, two days of partitions ahead; batches of 2 so the default partition's 3 expired rows need several statements.
    const config = loadConfig(outboxEnv, {
      OUTBOX_RETENTION_MS: String(24 * HOUR_MS),
      OUTBOX_CLEANUP_BATCH_SIZE: '2',
      OUTBOX_PARTITIONS_AHEAD_DAYS: '2',
    });
    policy = outboxRetention(config, new OutboxMetrics(registry, dataSource));
    cleanup = new RetentionJob(dataSource, policy);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the partitions ahead are missing, then a row of tomorrow lands in the default partition (alerted), and a run creates them and moves it into its day', async () => {
    // As if cleanup had not run for days: only today's partition left.
    for (const day of [1, 2, 3]) await dataSource.query(`DROP TABLE ${partition(day)}`);
    expect(await gauge('outbox_partitions_ahead_days')).toBe(0);
    const tomorrow = timeOrderedUuid(today + DAY_MS + HOUR_MS);
    await insert('tomorrow', tomorrow, Date.now(), null);
    expect(await gauge('outbox_default_partition_rows')).toBe(1);

    await cleanup.run();

    expect(await partitionsOf(dataSource, 'outbox_messages')).toEqual(
      expect.arrayContaining([partition(0), partition(1), partition(2), defaultPartitionName('outbox_messages')]),
    );
    const [{ home }]: { home: string }[] = await dataSource.query(
      'SELECT tableoid::regclass::text AS home FROM outbox_messages WHERE id = $1',
      [tomorrow],
    );
    expect(home).toBe(partition(1));
    expect(await gauge('outbox_partitions_ahead_days')).toBe(2);
    expect(await gauge('outbox_default_partition_rows')).toBe(0);
  });

  it('when a day is past retention, then its partition is dropped whole (no dead tuples, its disk given back); a day holding a pending row or a row published within retention is kept', async () => {
    // The partitions those days had, created ahead by the job as it ran then.
    await maintainDayPartitions(dataSource, { ...policy.partitions!, daysAhead: 2 }, today - 5 * DAY_MS);
    const at = (days: number, hours = 1) => today + days * DAY_MS + hours * HOUR_MS;
    await insert('a-expired-1', timeOrderedUuid(at(-5)), at(-5), at(-5, 2));
    await insert('a-expired-2', timeOrderedUuid(at(-5, 3)), at(-5, 3), at(-5, 4));
    await insert('b-old-pending', timeOrderedUuid(at(-4)), at(-4), null);
    await insert('b-expired-beside-pending', timeOrderedUuid(at(-4, 2)), at(-4, 2), at(-4, 3));
    await insert('c-published-within-retention', timeOrderedUuid(at(-3)), at(-3), Date.now() - 23 * HOUR_MS);
    // Ids that are not time-ordered: the default partition, pruned row by row.
    for (let n = 1; n <= 3; n += 1) await insert(`d-default-expired-${n}`, randomUUID(), at(-3), at(-3, 2));
    await insert('d-default-pending', randomUUID(), at(-3), null);
    const size = async (name: string) =>
      (await dataSource.query<{ n: string | null }[]>('SELECT pg_total_relation_size(to_regclass($1))::bigint AS n', [name]))[0].n;
    expect(Number(await size(partition(-5)))).toBeGreaterThan(0);

    expect(await cleanup.run()).toBe(3);

    const partitions = await partitionsOf(dataSource, 'outbox_messages');
    expect(partitions).not.toContain(partition(-5));
    expect(partitions).toEqual(expect.arrayContaining([partition(-4), partition(-3)]));
    expect(await labels()).toEqual([
      'b-expired-beside-pending',
      'b-old-pending',
      'c-published-within-retention',
      'd-default-pending',
      'tomorrow',
    ]);
    expect(await gauge('outbox_partitions_dropped_total')).toBe(1);
    expect(await gauge('outbox_cleanup_deleted_total')).toBe(3);
    expect(await size(partition(-5))).toBeNull();
    // What is left of the days' partitions carries no dead tuple: nothing was deleted row by row there.
    for (const name of partitions.filter((one) => one !== defaultPartitionName('outbox_messages'))) {
      const [{ dead }]: { dead: number }[] = await dataSource.query('SELECT dead_tuple_count::int AS dead FROM pgstattuple($1)', [name]);
      expect({ name, dead }).toEqual({ name, dead: 0 });
    }
  });

  it('when a transaction holds a partition past retention, then the drop gives up after its lock timeout instead of waiting the transaction out, and the next run drops it', async () => {
    await maintainDayPartitions(dataSource, { ...policy.partitions!, daysAhead: 0 }, today - 7 * DAY_MS);
    await insert('f-expired-held', timeOrderedUuid(today - 7 * DAY_MS + HOUR_MS), today - 7 * DAY_MS, today - 7 * DAY_MS + 2 * HOUR_MS);
    const reader = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query(`SELECT count(*) FROM ${partition(-7)}`);
      const started = Date.now();
      const held = await maintainDayPartitions(dataSource, policy.partitions!);
      expect(held).toMatchObject({ dropped: [], kept: expect.arrayContaining([partition(-7)]) });
      expect(Date.now() - started).toBeLessThan(5000);
      await reader.query('COMMIT');
      expect(await maintainDayPartitions(dataSource, policy.partitions!)).toMatchObject({ dropped: [partition(-7)] });
    } finally {
      await reader.end();
    }
  });

  it('when two replicas run the job at once, then each missing partition is created once and neither run fails', async () => {
    await dataSource.query(`DROP TABLE ${partition(2)}`);
    const otherReplica = await createDataSource({
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [],
      poolSize: 2,
    }).initialize();
    try {
      const passes = await Promise.all([
        maintainDayPartitions(dataSource, policy.partitions!),
        maintainDayPartitions(otherReplica, policy.partitions!),
      ]);
      expect(passes.flatMap((pass) => pass.created)).toHaveLength(1);
      expect(await partitionsOf(dataSource, 'outbox_messages')).toContain(partition(2));
    } finally {
      await otherReplica.destroy();
    }
  });

  it('when nothing else has expired, then a run drops and deletes nothing', async () => {
    const before = await partitionsOf(dataSource, 'outbox_messages');
    expect(await cleanup.run()).toBe(0);
    expect(await partitionsOf(dataSource, 'outbox_messages')).toEqual(before);
  });

  it('when runs overlap, then the second joins the first instead of working in parallel', async () => {
    await insert('e-default-expired', randomUUID(), Date.now() - 48 * HOUR_MS, Date.now() - 48 * HOUR_MS);
    const [first, second] = await Promise.all([cleanup.run(), cleanup.run()]);
    expect([first, second]).toEqual([1, 1]);
  });

  it('when the oldest pending row is read for its age, then the plan reads the partial pending index, not the rows', async () => {
    const plan: { 'QUERY PLAN': string }[] = await dataSource.query(
      'EXPLAIN SELECT created_at FROM outbox_messages WHERE published_at IS NULL ORDER BY seq LIMIT 1',
    );
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).not.toMatch(/Seq Scan|Sort {2}/);
    const used = [...text.matchAll(/Index Scan using (\S+)/g)].map((match) => match[1]);
    expect(used).toHaveLength((await partitionsOf(dataSource, 'outbox_messages')).length);
    for (const index of used) {
      const [{ definition }]: { definition: string }[] = await dataSource.query('SELECT pg_get_indexdef($1::regclass) AS definition', [
        index,
      ]);
      expect(definition).toMatch(/\(seq\) WHERE \(published_at IS NULL\)$/);
    }
    // Pending in write order: 'tomorrow', then 'b-old-pending' (written four days ago).
    expect(await gauge('outbox_oldest_pending_age_seconds')).toBeLessThan(3600);
    await dataSource.query("UPDATE outbox_messages SET published_at = now() WHERE aggregate_id = 'tomorrow'");
    expect(await gauge('outbox_oldest_pending_age_seconds')).toBeGreaterThan(4 * 24 * 3600);
  });
});
