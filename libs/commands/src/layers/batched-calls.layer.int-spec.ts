import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { TransactionContext } from '@libs/database';
import {
  type MigratedDatabase,
  migratedTestDatabase,
  type StandInPartner,
  startStandInPartner,
  testCommandsOptions,
  testInfrastructure,
} from '@test/fixtures';
import { layerAloneSetting, layerSettings, uniqueName, waitFor } from '@tools/test-support';
import { CommandDispatcher } from '../dispatch/command.dispatcher.js';
import { batchedCallsLayer } from './batched-calls.layer.js';
import { commandLayers, commandLayersEnv, commandLayerSwitches } from './command.layers.js';
import { CommandMetrics } from '../ops/command.metrics.js';
import { createCommandsTable } from '../write/command.migration.js';
import { CommandWriter } from '../write/command.writer.js';

const { serverUrl } = testInfrastructure();
const TABLE = 'batched_commands';

/** A command's body: the statuses the partner answers it with, attempt after attempt; `omit` leaves it out of a batch answer once. */
interface Script {
  answers: number[];
  omit?: boolean;
}

interface Request {
  path: string;
  key: string | undefined;
  ids: string[];
}

/**
 * The dispatcher against real Postgres and a stand-in partner over real HTTP (outside the system)
 * with a batch endpoint: `/calls` takes one command, `/calls/batch` many, each answered as its
 * script says. `batchEndpoint` switches the batch endpoint off (404), as an older partner would.
 * Three settings: the defaults; this layer on the core alone (every other layer off); every layer
 * off, where the same commands must settle the same way, one request each.
 */
const settings = [...layerSettings(commandLayers), layerAloneSetting(commandLayers, batchedCallsLayer)];

describe.each(settings)('@libs/commands in batches (real Postgres, a partner over HTTP), $name', ({ env }) => {
  const layers = commandLayerSwitches(loadConfig(commandLayersEnv, env));
  const batched = layers['batched-calls'];
  let migrated: MigratedDatabase | undefined;
  let dataSource: DataSource;
  let tx: TransactionContext;
  let writer: CommandWriter;
  let registry: Registry;
  let dispatcher: CommandDispatcher;
  let partner: StandInPartner;
  let batchEndpoint = true;
  const requests: Request[] = [];
  const attempts = new Map<string, number>();

  /** The status for a command's next attempt, from its script. */
  const nextAnswer = (id: string, script: Script) => {
    const attempt = attempts.get(id) ?? 0;
    attempts.set(id, attempt + 1);
    return script.answers[Math.min(attempt, script.answers.length - 1)];
  };

  const rowOf = async (id: string) => (await dataSource.query(`SELECT status, attempts, last_error FROM ${TABLE} WHERE id = $1`, [id]))[0];
  const statusesOf = async (ids: string[]) => {
    const rows = await dataSource.query<{ id: string; status: string }[]>(`SELECT id, status FROM ${TABLE} WHERE id = ANY($1)`, [ids]);
    return Object.fromEntries(rows.map((row) => [row.id, row.status]));
  };
  const metric = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
  /** Writes the commands in one transaction, so one claim finds them all. */
  const enqueueAll = (scripts: Record<string, Script>) =>
    tx.run(async () => {
      for (const [id, body] of Object.entries(scripts)) await writer.enqueue({ id, path: '/calls', body });
    });
  const dispatchUntilSettled = (ids: string[]) =>
    waitFor(
      async () => {
        dispatcher.trigger();
        await dispatcher.idle();
        return Object.values(await statusesOf(ids)).every((status) => status !== 'PENDING');
      },
      { timeoutMs: 10_000, intervalMs: 20, description: `${ids.join(', ')} to be settled` },
    );
  const requestsFor = (ids: string[]) => requests.filter((request) => request.ids.some((id) => ids.includes(id)));

  beforeAll(async () => {
    // The table comes from the library's own migration, as in an app (docs/commands.md, "The table").
    migrated = await migratedTestDatabase(serverUrl, 'commands_batch', [createCommandsTable(TABLE)]);
    ({ dataSource } = migrated);
    tx = new TransactionContext(dataSource);
    partner = await startStandInPartner(({ path, headers, text }, response) => {
      const key = headers['idempotency-key'] as string | undefined;
      if (path === '/calls') {
        requests.push({ path: '/calls', key, ids: [key!] });
        response.writeHead(nextAnswer(key!, JSON.parse(text) as Script)).end('{}');
        return;
      }
      if (path !== '/calls/batch' || !batchEndpoint) {
        response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"code":"REQUEST.ROUTE_NOT_FOUND"}');
        return;
      }
      const { commands } = JSON.parse(text) as { commands: { id: string; body: Script }[] };
      requests.push({ path: '/calls/batch', key, ids: commands.map((command) => command.id) });
      const results = commands
        .filter((command) => !command.body.omit || (attempts.get(command.id) ?? 0) > 0 || !attempts.set(command.id, 1))
        .map((command) => ({ id: command.id, status: nextAnswer(command.id, command.body), body: { id: command.id } }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
    registry = new Registry();
    writer = new CommandWriter(tx, TABLE);
    const opts = testCommandsOptions({
      table: TABLE,
      baseUrl: partner.url,
      layers,
      batchSize: 10,
      batching: { paths: { '/calls': '/calls/batch' }, maxCommands: 4 },
    });
    dispatcher = new CommandDispatcher(dataSource, new CommandMetrics(registry, dataSource, opts), opts);
  });

  beforeEach(() => {
    batchEndpoint = true;
  });

  afterAll(async () => {
    await dispatcher?.stop();
    await partner?.close();
    await migrated?.drop();
  });

  it('when one command is due, then it is sent alone, with its id as Idempotency-Key, as without batching', async () => {
    const id = uniqueName('lone');
    await enqueueAll({ [id]: { answers: [201] } });
    await dispatchUntilSettled([id]);
    expect(requestsFor([id])).toEqual([{ path: '/calls', key: id, ids: [id] }]);
    expect(await rowOf(id)).toMatchObject({ status: 'DONE', attempts: 1 });
  });

  it('when several commands are due, then one request carries them (up to maxCommands each) and every one is DONE', async () => {
    const ids = Array.from({ length: 6 }, (_, n) => uniqueName(`many-${n}`));
    const done = await metric(`${TABLE}_done_total`);
    await enqueueAll(Object.fromEntries(ids.map((id) => [id, { answers: [201] }])));
    await dispatchUntilSettled(ids);

    const sent = requestsFor(ids);
    expect(sent.map((request) => [request.path, request.key, request.ids.length])).toEqual(
      batched
        ? [
            ['/calls/batch', undefined, 4],
            ['/calls/batch', undefined, 2],
          ]
        : expect.arrayContaining(ids.map((id) => ['/calls', id, 1])),
    );
    expect(sent).toHaveLength(batched ? 2 : ids.length);
    expect(sent.flatMap((request) => request.ids).sort()).toEqual([...ids].sort());
    expect(Object.values(await statusesOf(ids))).toEqual(ids.map(() => 'DONE'));
    expect(await metric(`${TABLE}_done_total`)).toBe(done + ids.length);
  });

  it('when a batch answers each command differently, then each is recorded as its own answer says: DONE, PARKED, retried', async () => {
    const [accepted, refused, retried] = ['accepted', 'refused', 'retried'].map((name) => uniqueName(name));
    await enqueueAll({ [accepted]: { answers: [201] }, [refused]: { answers: [422] }, [retried]: { answers: [503, 201] } });
    await dispatchUntilSettled([accepted, refused, retried]);

    expect(await rowOf(accepted)).toMatchObject({ status: 'DONE', attempts: 1 });
    expect(await rowOf(refused)).toMatchObject({ status: 'PARKED', attempts: 1 });
    // The partner's answer to that command, not to the batch, is what a human reads.
    expect((await rowOf(refused)).last_error).toBe(batched ? `HTTP 422: {"id":"${refused}"}` : 'HTTP 422: {}');
    expect(await rowOf(retried)).toMatchObject({ status: 'DONE', attempts: 2 });
    if (batched)
      expect(requestsFor([accepted, refused, retried])[0]).toMatchObject({ path: '/calls/batch', ids: [accepted, refused, retried] });
    else expect(requestsFor([accepted, refused, retried]).map((request) => request.path)).toEqual(['/calls', '/calls', '/calls', '/calls']);
  });

  it("when a batch answer leaves a command out, then that command is retried, never marked DONE on the others' answer", async () => {
    const [answered, left] = ['answered', 'left-out'].map((name) => uniqueName(name));
    await enqueueAll({ [answered]: { answers: [201] }, [left]: { answers: [201], omit: true } });
    await dispatchUntilSettled([answered, left]);

    expect(await rowOf(answered)).toMatchObject({ status: 'DONE', attempts: 1 });
    // Only a batch answer can leave a command out; sent alone, each is answered at its first attempt.
    expect(await rowOf(left)).toMatchObject({ status: 'DONE', attempts: batched ? 2 : 1 });
  });

  it('when the partner has no batch endpoint (404), then the commands are sent one by one with their keys, and none is parked', async () => {
    batchEndpoint = false;
    const ids = Array.from({ length: 3 }, (_, n) => uniqueName(`no-endpoint-${n}`));
    await enqueueAll(Object.fromEntries(ids.map((id) => [id, { answers: [201] }])));
    await dispatchUntilSettled(ids);

    expect(Object.values(await statusesOf(ids))).toEqual(ids.map(() => 'DONE'));
    const singles = requestsFor(ids).filter((request) => request.path === '/calls');
    expect(singles.map((request) => request.key).sort()).toEqual([...ids].sort());
  });
});
