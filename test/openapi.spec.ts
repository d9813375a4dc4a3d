import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type EnvSchema, loadConfig } from '@libs/config';
import { type ApiDocsOptions, buildApiDocument } from '@libs/http';
import { type InventoryConfig, InventoryAppModule, inventoryApiDocs, inventoryEnv } from '@apps/inventory';
import { type LoyaltyConfig, LoyaltyAppModule, loyaltyApiDocs, loyaltyEnv } from '@apps/loyalty';
import { type OrdersConfig, OrdersAppModule, ordersApiDocs, ordersEnv } from '@apps/orders';

/**
 * Each app's OpenAPI document, as `GET /docs-json` serves it, passes redocly's
 * `recommended` ruleset (redocly.yaml) with no error, and lists the answers each operation can
 * give. The documents are built in-process from the real root modules in Nest's preview mode
 * (no provider is instantiated, so nothing connects: no database, no broker, no token issuer).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'node_modules/@redocly/cli/bin/cli.js');

/** Placeholders for the variables without a default; preview mode never uses them. */
const placeholderEnv = {
  AUTH_ISSUER: 'https://issuer.invalid/',
  AUTH_AUDIENCE: 'openapi-lint',
  AUTH_JWKS_URL: 'https://issuer.invalid/jwks',
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1',
  KAFKA_BROKERS: '127.0.0.1:1',
  LOYALTY_BASE_URL: 'http://127.0.0.1:1',
  AUTH_CLIENT_TOKEN_URL: 'https://issuer.invalid/token',
  AUTH_CLIENT_ID: 'openapi-lint',
  AUTH_CLIENT_SECRET: 'openapi-lint',
};

const apps: Record<string, { schema: EnvSchema; module: (config: never) => DynamicModule; docs: ApiDocsOptions }> = {
  orders: { schema: ordersEnv, module: (config: OrdersConfig) => OrdersAppModule.forRoot(config), docs: ordersApiDocs },
  inventory: { schema: inventoryEnv, module: (config: InventoryConfig) => InventoryAppModule.forRoot(config), docs: inventoryApiDocs },
  loyalty: { schema: loyaltyEnv, module: (config: LoyaltyConfig) => LoyaltyAppModule.forRoot(config), docs: loyaltyApiDocs },
};

async function documentOf(name: string): Promise<OpenAPIObject> {
  const { schema, module, docs } = apps[name];
  const config = loadConfig(schema, { ...placeholderEnv, NODE_ENV: 'test' });
  const app = await NestFactory.create<NestFastifyApplication>(module(config as never), new FastifyAdapter(), {
    preview: true,
    logger: false,
    // A module that fails to load then throws its error here, instead of Nest exiting the test process.
    abortOnError: false,
  });
  try {
    return buildApiDocument(app, docs);
  } finally {
    await app.close();
  }
}

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

let scratch: string;

/** Redocly's own CLI on `document`, with redocly.yaml (as `npx @redocly/cli lint` runs it): every problem it reports. */
async function lint(document: unknown): Promise<LintProblem[]> {
  const file = join(scratch, `openapi-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(document, null, 2));
  const run = promisify(execFile)(process.execPath, [cli, 'lint', '--config', join(root, 'redocly.yaml'), '--format', 'json', file], {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  // It exits 1 when it found an error; its report is on stdout either way.
  const { stdout } = await run.catch((error: { stdout?: string; code?: unknown }) => {
    if (error.code === 1 && error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
}

const summary = (problems: LintProblem[]) => problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

type Operations = Record<string, OperationObject>;
const operationsOf = (document: OpenAPIObject): Operations =>
  Object.fromEntries(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, OperationObject>).map(([method, operation]) => [`${method} ${path}`, operation]),
    ),
  );

/** `{ 'post /orders': '201 400 401 ...' }`: each operation's documented statuses. */
const statusesOf = (operations: Operations) =>
  Object.fromEntries(Object.entries(operations).map(([name, operation]) => [name, Object.keys(operation.responses).sort().join(' ')]));

describe('OpenAPI documents (redocly recommended ruleset)', () => {
  const documents: Record<string, OpenAPIObject> = {};

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    for (const name of Object.keys(apps)) documents[name] = await documentOf(name);
  });

  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it.each(Object.keys(apps))(
    'when the %s document is linted, then redocly reports no error, and no warning but the known one',
    async (name) => {
      const problems = await lint(documents[name]);
      expect(summary(problems.filter((problem) => problem.severity === 'error'))).toEqual([]);
      // The one warning left, on purpose: the probes and metrics answer no 4xx of their own. Any other
      // warning is new, and fails here so that it is fixed or explained, not left to pile up.
      const probeWithout4xx = (problem: LintProblem) =>
        problem.ruleId === 'operation-4xx-response' && /^#\/paths\/~1(health|metrics)\b/.test(problem.location[0]?.pointer ?? '');
      expect(summary(problems.filter((problem) => !probeWithout4xx(problem)))).toEqual([]);
    },
  );

  it('when an operation lacks security, then the lint reports security-defined (the check has teeth)', async () => {
    const document = structuredClone(documents.orders);
    delete (document.paths['/orders'].post as OperationObject).security;
    expect((await lint(document)).map((problem) => `${problem.severity} ${problem.ruleId}`)).toContain('error security-defined');
  });

  it('when servers is empty, then the lint reports no-empty-servers (the check has teeth)', async () => {
    const document = { ...structuredClone(documents.orders), servers: [] };
    expect((await lint(document)).map((problem) => `${problem.severity} ${problem.ruleId}`)).toContain('error no-empty-servers');
  });

  it('when a document is built, then servers is the relative "/" and only health and metrics are public (security: [])', () => {
    for (const [name, document] of Object.entries(documents)) {
      expect({ name, servers: document.servers?.map((server) => server.url) }).toEqual({ name, servers: ['/'] });
      for (const [operation, { security }] of Object.entries(operationsOf(document))) {
        const open = /^get \/(health|metrics)\b/.test(operation);
        expect({ name, operation, security }).toEqual({ name, operation, security: open ? [] : [{ bearer: [] }] });
      }
    }
  });

  // 401 and 503 on every authenticated route (the guard; no database connection), 403 where a
  // scope or the caller is checked, 415 where a body may come, 429 where an Idempotency-Key is taken.
  it('when a document is built, then every operation lists each answer it can give', () => {
    expect(statusesOf(operationsOf(documents.orders))).toEqual({
      'post /orders': '201 400 401 403 413 415 422 429 503',
      'get /orders/{id}': '200 400 401 404 503',
      'post /orders/{id}/cancel': '200 400 401 404 409 415 503',
      'get /health': '200 503',
      'get /health/live': '200',
      'get /health/ready': '200 503',
      'get /metrics': '200',
    });
    expect(statusesOf(operationsOf(documents.inventory))).toEqual({
      'get /stock/{sku}': '200 400 401 404 503',
      'put /stock/{sku}': '200 400 401 403 413 415 503',
      'get /health': '200 503',
      'get /health/live': '200',
      'get /health/ready': '200 503',
      'get /metrics': '200',
    });
    expect(statusesOf(operationsOf(documents.loyalty))).toEqual({
      'post /accruals': '201 400 401 403 413 415 422 429 503',
      // No 422 or 429 of its own: a mismatch is answered per accrual, and it stores no Idempotency-Key.
      'post /accruals/batch': '200 400 401 403 413 415 503',
      'get /accruals': '200 400 401 503',
      'post /reversals': '201 400 401 403 409 413 415 422 429 503',
      'get /balance': '200 400 401 503',
      'get /health': '200 503',
      'get /health/live': '200',
      'get /health/ready': '200 503',
      'get /metrics': '200',
    });
  });

  it('when an operation may be refused 401, 429 or 503, then it says so with problem+json and the header to act on', () => {
    const place = documents.orders.paths['/orders'].post as OperationObject;
    const answer = (status: number) => place.responses[status] as { content: Record<string, { schema: unknown }>; headers?: object };
    for (const status of [401, 403, 415, 429, 503]) {
      expect(answer(status).content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
    }
    expect(Object.keys(answer(401).headers ?? {})).toEqual(['WWW-Authenticate']);
    expect(Object.keys(answer(429).headers ?? {})).toEqual(['Retry-After']);
    expect(Object.keys(answer(503).headers ?? {})).toEqual(['Retry-After']);
  });
});
