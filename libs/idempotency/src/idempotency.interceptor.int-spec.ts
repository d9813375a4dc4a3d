import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsString, MaxLength } from 'class-validator';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { AuthModule, authEnv } from '@app/auth';
import { loadConfig } from '@app/config';
import { createDataSource, databaseUrl, DatabaseModule, migrateDatabase } from '@app/database';
import { armFailpoints } from '@app/failpoints';
import { configureHttpApp } from '@app/http';
import { customerToken, StatementCounter, testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, queryTestDatabase, requestJson, uniqueName } from '@tools/local-stack';
import { AddIdempotencyKeysCreatedAtIndex1764460800400 } from './add-idempotency-keys-created-at-index.migration.js';
import { CreateIdempotencyKeys1764460800000 } from './create-idempotency-keys.migration.js';
import { ScopeIdempotencyKeysByPrincipal1764460800620 } from './scope-idempotency-keys-by-principal.migration.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyModule } from './idempotency.module.js';
import { Idempotent } from './idempotent.decorator.js';

/**
 * Issue 16, part 8: the idempotency interceptor validates the body before it opens its
 * transaction, and its failpoint is scoped by what the server stored, never by the client's
 * key. A real HTTP app on real Postgres, with a route shaped like `POST /orders`.
 */
const { serverUrl } = testInfrastructure();
const FAILPOINT = 'orders.after-commit-before-response';

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

  // Idempotent routes are authenticated: keys are scoped by the caller (issue 16).
  const post = async (key: string, body: unknown, timeoutMs = 30_000) =>
    requestJson('POST', `${baseUrl}/things`, {
      body,
      headers: { 'Idempotency-Key': key },
      timeoutMs,
      token: await customerToken('things-client'),
    });
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
        migrations: [
          CreateIdempotencyKeys1764460800000,
          AddIdempotencyKeysCreatedAtIndex1764460800400,
          ScopeIdempotencyKeysByPrincipal1764460800620,
        ],
        poolSize: 4,
        // Without the control below, the claim waits on the test's table lock: fail it soon.
        lockTimeoutMs: 3_000,
      });
    await migrateDatabase(dataSource(), serverUrl, database);
    @Module({
      imports: [
        AuthModule.forRoot(loadConfig(authEnv, testAuthEnv('orders'))),
        DatabaseModule.forRoot({ useFactory: dataSource }),
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

  it('when a request executes, then its key is stored with its answer in one INSERT; when it is repeated, then one read replays it', async () => {
    const key = uniqueName('one-statement');
    counter.texts = [];
    const first = await post(key, { name: 'c' });
    expect(first.status).toBe(201);
    // Not a claim and then an update of the same row: one statement per idempotent request.
    expect(keyStatements()).toEqual(['INSERT']);

    counter.texts = [];
    const replay = await post(key, { name: 'c' });
    expect({ status: replay.status, id: replay.body.id, replayed: replay.headers.get('idempotent-replayed') }).toEqual({
      status: 201,
      id: first.body.id,
      replayed: 'true',
    });
    expect(keyStatements()).toEqual(['INSERT', 'SELECT']);
    expect(await storedKeys(key)).toBe(1);
  });
});
