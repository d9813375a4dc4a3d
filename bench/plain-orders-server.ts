// The HTTP baselines of `POST /orders`, run as their own process by place-order-http.bench.ts: a
// plain node:http server on pg, no Nest, no TypeORM, no validation library. BENCH_PLAIN_MODE:
//   insert      the order and its items in one transaction (no outbox row): the floor.
//   outbox      the same plus the outbox row and pg_notify the orders app writes: what the outbox
//               itself costs, apart from the framework.
//   dual-write  the insert, then an awaited producer send (acks -1) after the commit: the naive
//               design the outbox replaces (a crash between the two loses the event).
// Every mode authenticates as the orders app does: the customer is the `sub` of the bearer token,
// verified with jose against the same JWKS, issuer and audience (AUTH_*), so the baseline pays the
// same signature check per request and the comparison measures the framework, not the auth.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import pg from 'pg';
import { databaseUrl } from '@libs/database';
import { createKafka } from '@libs/kafka';

const mode = process.env.BENCH_PLAIN_MODE ?? 'insert';
if (!['insert', 'outbox', 'dual-write'].includes(mode))
  throw new Error(`BENCH_PLAIN_MODE must be insert, outbox or dual-write, not ${mode}`);
const topic = process.env.BENCH_TOPIC ?? 'bench.plain-orders.v1';
// The orders app's default pool size (DATABASE_POOL_SIZE), so neither side wins by connections.
const pool = new pg.Pool({
  connectionString: databaseUrl(process.env.DATABASE_URL!, process.env.DATABASE_NAME!),
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const producer =
  mode === 'dual-write'
    ? createKafka({ brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'bench-dual-write' }).producer({
        allowAutoTopicCreation: true,
      })
    : undefined;

// The verifier's settings of libs/auth (token-verifier.ts): asymmetric algorithms, `sub` and `exp` required.
const keys = createRemoteJWKSet(new URL(process.env.AUTH_JWKS_URL!), { timeoutDuration: 5000, cooldownDuration: 30_000 });
const verifyOptions = {
  issuer: process.env.AUTH_ISSUER!,
  audience: process.env.AUTH_AUDIENCE!,
  algorithms: ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'],
  clockTolerance: 5,
  requiredClaims: ['sub', 'exp'],
};

/** The customer the bearer token names (`sub`), or undefined when there is no valid token. */
async function customerOf(request: IncomingMessage): Promise<string | undefined> {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return undefined;
  try {
    return (await jwtVerify(token, keys, verifyOptions)).payload.sub;
  } catch {
    return undefined;
  }
}

interface Line {
  sku: string;
  quantity: number;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

async function placeOrder(customerId: string, body: { items: Line[] }): Promise<Record<string, unknown>> {
  const id = randomUUID();
  const createdAt = new Date().toISOString();
  const client = await pool.connect();
  let payload: { orderId: string; customerId: string; items: (Line & { unitPriceCents: number })[]; totalCents: number; createdAt: string };
  try {
    await client.query('BEGIN');
    // Priced from the price list, as the orders app does: the same read on both sides of the comparison.
    const { rows } = await client.query<{ sku: string; unit_price_cents: string }>(
      'SELECT sku, unit_price_cents FROM products WHERE sku = ANY($1::text[])',
      [body.items.map((item) => item.sku)],
    );
    const prices = new Map(rows.map((row) => [row.sku, Number(row.unit_price_cents)]));
    const items = body.items.map((item) => ({ ...item, unitPriceCents: prices.get(item.sku) ?? 0 }));
    const totalCents = items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
    payload = { orderId: id, customerId, items, totalCents, createdAt };
    await client.query("INSERT INTO orders (id, customer_id, status, total_cents) VALUES ($1, $2, 'PENDING', $3)", [
      id,
      customerId,
      totalCents,
    ]);
    for (const [index, item] of items.entries()) {
      await client.query('INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price_cents) VALUES ($1, $2, $3, $4, $5)', [
        id,
        index + 1,
        item.sku,
        item.quantity,
        item.unitPriceCents,
      ]);
    }
    if (mode === 'outbox') {
      await client.query(
        `INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, created_at)
         VALUES ($1, 'order', $2, 'OrderCreated', $3, $2, $4, $5, $6)`,
        [randomUUID(), id, topic, JSON.stringify(payload), JSON.stringify({ 'message-type': 'OrderCreated' }), createdAt],
      );
      await client.query('SELECT pg_notify($1, $2)', ['outbox_messages', topic]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  if (producer) await producer.send({ topic, acks: -1, messages: [{ key: id, value: JSON.stringify(payload) }] });
  return { id, customerId, status: 'PENDING', items: payload.items, totalCents: payload.totalCents, createdAt };
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method === 'GET' && request.url === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (request.method !== 'POST' || request.url !== '/orders') {
    response.writeHead(404).end();
    return;
  }
  try {
    const customerId = await customerOf(request);
    if (customerId === undefined) {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const body = JSON.parse(await readBody(request)) as { items: Line[] };
    if (!Array.isArray(body.items) || body.items.length === 0) {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(await placeOrder(customerId, body)));
  } catch (error) {
    response.writeHead(500, { 'content-type': 'text/plain' }).end((error as Error).message);
  }
}

await producer?.connect();
const server = createServer((request, response) => void handle(request, response));
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`plain orders server (${mode}) on ${process.env.PORT}`));
process.on('SIGTERM', () => {
  server.close();
  void Promise.all([pool.end(), producer?.disconnect()]).then(() => process.exit(0));
});
