import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { NoActiveTransactionError, TransactionContext } from '@libs/database';
import {
  type MigratedDatabase,
  migratedTestDatabase,
  type StandInPartner,
  startStandInPartner,
  testCommandsOptions,
  testInfrastructure,
} from '@test/fixtures';
import { layerSettings, uniqueName, waitFor } from '@tools/test-support';
import { CommandDispatcher } from './command.dispatcher.js';
import { commandLayers, commandLayersEnv, commandLayerSwitches } from '../layers/command.layers.js';
import { CommandMetrics } from '../ops/command.metrics.js';
import { createCommandsTable } from '../write/command.migration.js';
import { CommandWriter } from '../write/command.writer.js';

const { serverUrl } = testInfrastructure();
const TABLE = 'partner_commands';

/** The stand-in partner records the credential it was sent; testCommandsOptions sends this one. */
const PARTNER_TOKEN = 'partner-test-token';

interface Received {
  path: string;
  key: string | undefined;
  authorization: string | undefined;
  body: { answers: number[] };
}

/**
 * The library against real Postgres and a stand-in partner over real HTTP: each command's body
 * lists the statuses the partner answers it with, attempt after attempt. Once with the dispatcher's
 * speed-up layers on (the defaults), once with every one off (the core alone).
 */
describe.each(layerSettings(commandLayers))('@libs/commands (real Postgres, a partner over HTTP), $name', ({ env }) => {
  let migrated: MigratedDatabase | undefined;
  let dataSource: DataSource;
  let tx: TransactionContext;
  let writer: CommandWriter;
  let registry: Registry;
  let dispatcher: CommandDispatcher;
  let partner: StandInPartner;
  const received: Received[] = [];
  const dispatchers: CommandDispatcher[] = [];

  const layers = commandLayerSwitches(loadConfig(commandLayersEnv, env));
  const newDispatcher = (metricsRegistry: Registry) => {
    const opts = testCommandsOptions({ table: TABLE, baseUrl: partner.url, layers });
    const dispatcher = new CommandDispatcher(dataSource, new CommandMetrics(metricsRegistry, dataSource, opts), opts);
    dispatchers.push(dispatcher);
    return dispatcher;
  };
  const rowOf = async (id: string) =>
    (await dataSource.query(`SELECT status, attempts, last_error, path, body, traceparent FROM ${TABLE} WHERE id = $1`, [id]))[0];
  const metric = async (name: string, from = registry) => (await from.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
  /** Runs dispatch cycles until `id` reaches `status` (a retried command is due again after its backoff). */
  const dispatchUntil = (id: string, status: string) =>
    waitFor(
      async () => {
        dispatcher.trigger();
        await dispatcher.idle();
        return (await rowOf(id))?.status === status;
      },
      { timeoutMs: 10_000, intervalMs: 20, description: `${id} to be ${status}` },
    );
  const enqueue = (id: string, answers: number[]) => tx.run(() => writer.enqueue({ id, path: '/calls', body: { answers } }));

  beforeAll(async () => {
    // The table comes from the library's own migration, as in an app (docs/commands.md, "The table").
    migrated = await migratedTestDatabase(serverUrl, 'commands', [createCommandsTable(TABLE)]);
    ({ dataSource } = migrated);
    tx = new TransactionContext(dataSource);
    partner = await startStandInPartner(({ path, headers, text }, response) => {
      const body = JSON.parse(text) as Received['body'];
      const attempt = received.filter((one) => one.key === headers['idempotency-key']).length;
      received.push({ path, key: headers['idempotency-key'] as string | undefined, authorization: headers.authorization, body });
      response.writeHead(body.answers[Math.min(attempt, body.answers.length - 1)]).end('{}');
    });
    registry = new Registry();
    writer = new CommandWriter(tx, TABLE);
    dispatcher = newDispatcher(registry);
  });

  afterAll(async () => {
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
    await partner?.close();
    await migrated?.drop();
  });

  it('when a command is enqueued outside a transaction, then the writer refuses', async () => {
    await expect(writer.enqueue({ id: uniqueName('op'), path: '/calls', body: {} })).rejects.toBeInstanceOf(NoActiveTransactionError);
  });

  it('when the business transaction rolls back, then its command is gone with it', async () => {
    const id = uniqueName('op');
    await expect(
      tx.run(async () => {
        await writer.enqueue({ id, path: '/calls', body: { answers: [201] } });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect(await rowOf(id)).toBeUndefined();
  });

  it('when the writing transaction commits, then the writer wakes the dispatcher once, after the commit; a rollback wakes nobody', async () => {
    const seenAtWakeUp: (string | undefined)[] = [];
    const id = uniqueName('op-woken');
    const waking = new CommandWriter(tx, TABLE, () => {
      // What a woken dispatcher's claim would see: the row must already be committed.
      seenAtWakeUp.push('pending');
      void rowOf(id).then((row) => (seenAtWakeUp[seenAtWakeUp.length - 1] = row?.status));
    });
    await expect(
      tx.run(async () => {
        await waking.enqueue({ id: uniqueName('op-rolled-back'), path: '/calls', body: { answers: [201] } });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect(seenAtWakeUp).toEqual([]);

    await tx.run(async () => {
      await waking.enqueue({ id, path: '/calls', body: { answers: [201] } });
      await waking.enqueue({ id: uniqueName('op-woken-second'), path: '/calls', body: { answers: [201] } });
      expect(seenAtWakeUp).toEqual([]);
    });
    await waitFor(() => seenAtWakeUp[0] === 'PENDING', { timeoutMs: 5000, description: 'the wake-up to see the committed command' });
    expect(seenAtWakeUp).toEqual(['PENDING']);
  });

  it('when a command commits through a writer wired to a dispatcher, then it is sent without a poll or a trigger', async () => {
    const woken = newDispatcher(new Registry());
    const wired = new CommandWriter(tx, TABLE, () => woken.trigger());
    const id = uniqueName('op-sent-on-commit');
    await tx.run(() => wired.enqueue({ id, path: '/calls', body: { answers: [201] } }));
    await waitFor(async () => (await rowOf(id))?.status === 'DONE', { timeoutMs: 10_000, description: `${id} to be DONE` });
    expect(received.filter((one) => one.key === id)).toHaveLength(1);
  });

  it('when the partner answers 2xx, then the command is sent once, with its id as Idempotency-Key, and is DONE', async () => {
    const id = uniqueName('op-accepted');
    await enqueue(id, [201]);
    expect(await rowOf(id)).toMatchObject({ status: 'PENDING', attempts: 0, path: '/calls', body: { answers: [201] } });

    await dispatchUntil(id, 'DONE');
    expect(received.filter((one) => one.key === id)).toEqual([
      { path: '/calls', key: id, authorization: `Bearer ${PARTNER_TOKEN}`, body: { answers: [201] } },
    ]);
    expect(await rowOf(id)).toMatchObject({ status: 'DONE', attempts: 1, last_error: null });
    expect(await metric(`${TABLE}_done_total`)).toBe(1);
  });

  it('when the partner answers 5xx, then the command is retried with the same key until it is accepted', async () => {
    const id = uniqueName('op-retried');
    await enqueue(id, [503, 500, 200]);

    await dispatchUntil(id, 'DONE');
    expect(received.filter((one) => one.key === id)).toHaveLength(3);
    expect(await rowOf(id)).toMatchObject({ status: 'DONE', attempts: 3 });
    expect(await metric(`${TABLE}_retried_total`)).toBe(2);
  });

  it('when the partner refuses with a 4xx, then the command is PARKED with the answer, and never sent again', async () => {
    const id = uniqueName('op-parked');
    await enqueue(id, [422]);

    await dispatchUntil(id, 'PARKED');
    expect(await rowOf(id)).toMatchObject({ status: 'PARKED', attempts: 1, last_error: 'HTTP 422: {}' });
    expect(await metric(`${TABLE}_parked_total`)).toBe(1);
    expect(await metric(`${TABLE}_parked`)).toBe(1);
    dispatcher.trigger();
    await dispatcher.idle();
    expect(received.filter((one) => one.key === id)).toHaveLength(1);
  });

  it('when two replicas dispatch the same backlog, then their claims split it: every command is sent exactly once', async () => {
    const replicas = [newDispatcher(new Registry()), newDispatcher(new Registry())];
    const ids = Array.from({ length: 12 }, (_, n) => uniqueName(`op-backlog-${n}`));
    await tx.run(async () => {
      for (const id of ids) await writer.enqueue({ id, path: '/calls', body: { answers: [200] } });
    });

    for (const replica of replicas) replica.trigger();
    await Promise.all(replicas.map((replica) => replica.idle()));
    const [{ done }] = await dataSource.query(`SELECT count(*)::int AS done FROM ${TABLE} WHERE id = ANY($1) AND status = 'DONE'`, [ids]);
    expect(done).toBe(ids.length);
    expect(
      received
        .filter((one) => ids.includes(one.key!))
        .map((one) => one.key)
        .sort(),
    ).toEqual([...ids].sort());
  });
});
