import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsString, MaxLength } from 'class-validator';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { AuthModule, authEnv } from '@libs/auth';
import { loadConfig } from '@libs/config';
import { createDataSource, databaseUrl, DatabaseModule, migrateDatabase } from '@libs/database';
import { armFailpoints } from '@libs/failpoints';
import { configureHttpApp } from '@libs/http';
import { customerToken, StatementCounter, testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, queryTestDatabase, requestJson, uniqueName } from '@tools/test-support';
import { IdempotencyConfigModule } from './idempotency-config.module.js';
import { idempotencyEnv } from './idempotency.config.js';
import { idempotencyMigrations } from './idempotency.migrations.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyModule } from './idempotency.module.js';
import { Idempotent } from './idempotent.decorator.js';

/**
 * The idempotency interceptor validates the body before it opens its
 * transaction, and its failpoint is scoped by what the server stored, never by the client's
 * key. A caller's new keys are bounded by a quota. A real HTTP app on real
 * Postgres, with a route shaped like `POST /orders`.
 */
const { serverUrl } = testInfrastructure();
const FAILPOINT = 'orders.after-commit-before-response';
/** The test app's quota: 5 new keys per caller per minute. */
const QUOTA = { keysPerCallerMax: 5, keysWindowMs: 60_000 };
/** How many times the handler ran: a refused request must not reach it. */
let handled = 0;

class ThingRequest {
  @IsString()
  @MaxLength(20)
  name: string;
}

@Controller('things')
class ThingsController {
  @Post()
  @HttpCode(201)
  @Idempotent({ status: 201, afterCommitFailpoint: FAILPOINT, failpointScope: (thing: { id: string }) => thing.id })
  create(@Body() request: ThingRequest) {
    handled += 1;
    return { id: randomUUID(), name: request.name };
  }
}

/** Every statement the app's data source sends. */
const counter = new StatementCounter();
/** The verbs of those that touch the key table, in order. */
const keyStatements = () => counter.texts.filter((text) => text.includes('idempotency_keys')).map((text) => text.split(' ', 1)[0]);
const withLogger = (options: Parameters<typeof createDataSource>[0]) =>
  new DataSource({ ...createDataSource(options).options, logger: counter });

describe('IdempotencyInterceptor bounds (real HTTP app, real Postgres)', () => {
  let database: string;
  let app: NestFastifyApplication;
  let baseUrl: string;

  // Idempotent routes are authenticated: keys are scoped by the caller, so one caller cannot read another's stored answer.
  const post = async (key: string, body: unknown, timeoutMs = 30_000, caller = 'things-client') =>
    requestJson('POST', `${baseUrl}/things`, {
      body,
      headers: { 'Idempotency-Key': key },
      timeoutMs,
      token: await customerToken(caller),
    });
  const keysOf = async (caller: string) =>
    (
      await queryTestDatabase<{ n: number }>(serverUrl, database, 'SELECT count(*)::int AS n FROM idempotency_keys WHERE principal = $1', [
        caller,
      ])
    )[0]?.n;
  /** Moves `caller`'s keys `ageMs` into the past, as if they had been stored then. */
  const age = (caller: string, ageMs: number, where = 'true') =>
    queryTestDatabase(
      serverUrl,
      database,
      `UPDATE idempotency_keys SET created_at = now() - make_interval(secs => $2::float / 1000) WHERE principal = $1 AND ${where}`,
      [caller, ageMs],
    );
  const storedKeys = async (key: string) =>
    (
      await queryTestDatabase<{ n: number }>(serverUrl, database, 'SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key])
    )[0]?.n;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'idempotency_bounds');
    const dataSource = () =>
      withLogger({
        serverUrl,
        database,
        entities: [IdempotencyKey],
        migrations: [...idempotencyMigrations],
        poolSize: 4,
        // Without the control below, the claim waits on the test's table lock: fail it soon.
        lockTimeoutMs: 3_000,
      });
    await migrateDatabase(dataSource(), serverUrl, database);
    @Module({
      imports: [
        AuthModule.forRoot(loadConfig(authEnv, testAuthEnv('orders'))),
        DatabaseModule.forRoot({ useFactory: dataSource }),
        IdempotencyConfigModule.forRoot(loadConfig(idempotencyEnv(QUOTA), {})),
        IdempotencyModule,
      ],
      controllers: [ThingsController],
    })
    class ThingsModule {}
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
    configureHttpApp(app, { bodyLimitBytes: 65_536, docs: { title: 'things', description: 'test app' } });
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterEach(() => armFailpoints({}));

  afterAll(async () => {
    await app?.close();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the body is invalid, then it is refused with 400 before the transaction: no wait on the key table, no key stored', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
    await holder.connect();
    const key = uniqueName('invalid-body');
    try {
      // Nobody may touch idempotency_keys while this is held: a claim inside the transaction waits.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const response = await post(key, { name: 42 });
      expect({ status: response.status, code: response.body.code, fields: response.body.fields }).toEqual({
        status: 400,
        code: 'REQUEST.VALIDATION_FAILED',
        fields: ['name'],
      });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await storedKeys(key)).toBe(0);
  });

  it("when a failpoint is armed for the client's Idempotency-Key, then no request reaches it, whatever key the client sends", async () => {
    const key = uniqueName('client-chosen');
    // Were the key the scope, this request would hang for a minute (and a kill would take the process down).
    armFailpoints({ FAILPOINTS: `${FAILPOINT}@${key}=sleep(60000)`, FAILPOINTS_ENABLED: 'true', NODE_ENV: 'test' });
    const response = await post(key, { name: 'a' }, 10_000);
    expect(response.status).toBe(201);
    expect(await storedKeys(key)).toBe(1);
  });

  it('when a failpoint is armed for a value the server stored (the resource id), then the request of that resource reaches it', async () => {
    const key = uniqueName('server-scope');
    const first = await post(key, { name: 'b' });
    expect(first.status).toBe(201);
    const id = String(first.body.id);
    armFailpoints({ FAILPOINTS: `${FAILPOINT}@${id} replayed=sleep(1500)`, FAILPOINTS_ENABLED: 'true', NODE_ENV: 'test' });
    const started = Date.now();
    const replay = await post(key, { name: 'b' });
    expect({ status: replay.status, id: replay.body.id }).toEqual({ status: 201, id });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
  });

  it('when a request executes, then one read checks key and quota and one INSERT stores the answer; when it is repeated, then one read replays it', async () => {
    const key = uniqueName('one-statement');
    counter.texts = [];
    const first = await post(key, { name: 'c' });
    expect(first.status).toBe(201);
    // Not a claim and then an update of the same row: one write per idempotent request.
    expect(keyStatements()).toEqual(['SELECT', 'INSERT']);

    counter.texts = [];
    const replay = await post(key, { name: 'c' });
    expect({ status: replay.status, id: replay.body.id, replayed: replay.headers.get('idempotent-replayed') }).toEqual({
      status: 201,
      id: first.body.id,
      replayed: 'true',
    });
    // The replay runs no effect: the read before the transaction answers it.
    expect(keyStatements()).toEqual(['SELECT']);
    expect(await storedKeys(key)).toBe(1);
  });

  describe('the per-caller quota of new keys (5 per minute here)', () => {
    it('when a caller sends its 6th new key within the window, then 429 IDEMPOTENCY.QUOTA_EXCEEDED with Retry-After and the security headers, and nothing runs or is stored', async () => {
      const caller = uniqueName('quota-full');
      const keys = Array.from({ length: 6 }, (_, n) => uniqueName(`quota-${n}`));
      for (const key of keys.slice(0, 5)) expect((await post(key, { name: 'q' }, 30_000, caller)).status).toBe(201);
      const handledBefore = handled;

      const refused = await post(keys[5], { name: 'q' }, 30_000, caller);

      expect({
        status: refused.status,
        type: refused.headers.get('content-type')?.split(';', 1)[0],
        code: refused.body.code,
        nosniff: refused.headers.get('x-content-type-options'),
        frames: refused.headers.get('x-frame-options'),
        csp: refused.headers.get('content-security-policy'),
      }).toEqual({
        status: 429,
        type: 'application/problem+json',
        code: 'IDEMPOTENCY.QUOTA_EXCEEDED',
        nosniff: 'nosniff',
        frames: 'DENY',
        csp: "default-src 'none';frame-ancestors 'none'",
      });
      // The keys were stored a moment ago: the oldest leaves the one-minute window in about 60 s.
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(handled).toBe(handledBefore);
      expect(await storedKeys(keys[5])).toBe(0);
      expect(await keysOf(caller)).toBe(5);
    });

    it('when a caller at its quota repeats a key it stored, then the replay is answered, not refused', async () => {
      const caller = uniqueName('quota-replay');
      const keys = Array.from({ length: 5 }, (_, n) => uniqueName(`quota-replay-${n}`));
      const answers = [];
      for (const key of keys) answers.push(await post(key, { name: 'r' }, 30_000, caller));
      expect((await post(uniqueName('quota-replay-new'), { name: 'r' }, 30_000, caller)).status).toBe(429);

      const replay = await post(keys[0], { name: 'r' }, 30_000, caller);

      expect({ status: replay.status, id: replay.body.id, replayed: replay.headers.get('idempotent-replayed') }).toEqual({
        status: 201,
        id: answers[0].body.id,
        replayed: 'true',
      });
      // A conflict is still a conflict, not a quota answer.
      expect((await post(keys[1], { name: 'other' }, 30_000, caller)).body.code).toBe('IDEMPOTENCY.KEY_REUSED');
      expect(await keysOf(caller)).toBe(5);
    });

    it('when one caller is at its quota, then another caller stores new keys as before', async () => {
      const full = uniqueName('quota-neighbour-full');
      for (let n = 0; n < 5; n += 1) await post(uniqueName('quota-neighbour'), { name: 'n' }, 30_000, full);
      expect((await post(uniqueName('quota-neighbour'), { name: 'n' }, 30_000, full)).status).toBe(429);

      const other = uniqueName('quota-neighbour-other');
      expect((await post(uniqueName('quota-other'), { name: 'n' }, 30_000, other)).status).toBe(201);
      expect(await keysOf(other)).toBe(1);
    });

    it("when the window slides, then Retry-After is when the caller's oldest key of the window leaves it, and a new key is stored after that", async () => {
      const caller = uniqueName('quota-slide');
      const keys = Array.from({ length: 5 }, (_, n) => uniqueName(`quota-slide-${n}`));
      for (const key of keys) await post(key, { name: 's' }, 30_000, caller);
      // The first key was stored 50 s ago: it leaves the window in 10 s.
      await age(caller, 50_000, `key = '${keys[0]}'`);
      const refused = await post(uniqueName('quota-slide-new'), { name: 's' }, 30_000, caller);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(9);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10);

      // Now it left the window: one place is free, and only one.
      await age(caller, 61_000, `key = '${keys[0]}'`);
      expect((await post(uniqueName('quota-slide-new'), { name: 's' }, 30_000, caller)).status).toBe(201);
      expect((await post(uniqueName('quota-slide-new'), { name: 's' }, 30_000, caller)).status).toBe(429);
      expect(await keysOf(caller)).toBe(6);
    });
  });
});
