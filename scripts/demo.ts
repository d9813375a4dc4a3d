// `npm run demo`: watch the patterns work against a running system (`npm start`, or compose with the
// same ports). Seeds stock and a price, places one order and narrates each step as it happens, reading the
// databases, Kafka and the HTTP APIs; then shows a crash window heal with an orders process of its
// own, killed by a failpoint between its commit and its answer. Exits 1 as soon as a step does not
// happen within its deadline. Configuration: the same variables as `npm start` (ORDERS_PORT,
// INVENTORY_PORT, LOYALTY_PORT, DATABASE_URL, KAFKA_BROKERS), with the same local defaults; the
// databases are the services' default ones unless ORDERS_DATABASE_NAME, INVENTORY_DATABASE_NAME or
// LOYALTY_DATABASE_NAME say otherwise (its own test runs it against throw-away databases). Every
// call carries a token of the issuer `npm start` runs (.local/dev-issuer/, or DEV_ISSUER_FILE):
// the customer's for orders and accruals, an operator's to seed stock.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ADMIN_SCOPE } from '@libs/auth';
import { loadDotEnv } from '@libs/config';
import { Topics } from '@libs/contracts';
import { databaseUrl } from '@libs/database';
import { Headers } from '@libs/envelope';
import { OrdersFailpoints } from '@apps/orders';
import {
  APP_PROCESS_ENV,
  compiledEntry,
  deleteConsumerGroups,
  describeExit,
  findRepoRoot,
  freePort,
  kafkaSaslEnv,
  localEnvironment,
  localDatabaseName,
  localIssuer,
  localKafkaCredentials,
  localServiceSigningEnv,
  localToolingEnv,
  usesLocalKafkaCredentials,
  mainEntry,
  NodeProcess,
  type RecordedMessage,
  type ServiceName,
  requestJson,
  serviceNamed,
  servicePort,
  startGroupAtEnd,
  topicEndOffsets,
  TopicRecorder,
  uniqueName,
  uniqueSku,
  waitFor,
  parseCommandLine,
} from '@tools/local-stack';
parseCommandLine({
  name: 'demo',
  usage: 'npm run demo --',
  summary:
    'Against a running stack (npm start): seeds stock and a price, places one order and narrates each step, then shows a crash window heal.',
  flags: {},
});

// Like npm start, ops, token and the seeds: ports and addresses moved in `.env` move the demo with them.
loadDotEnv();

/** The whole demo must finish well within two minutes; each step has its own, shorter, deadline. */
const STEP_TIMEOUT_MS = 20_000;
const started = Date.now();
// The demo's own Kafka clients connect and verify as the local tooling does (the local `admin`
// user and the producers' public keys), unless the environment names its own.
Object.assign(process.env, localToolingEnv());
const env = localEnvironment();
/** What the demo's own orders process authenticates as: the orders principal, on the local brokers. */
const ordersKafkaEnv = usesLocalKafkaCredentials(env) ? kafkaSaslEnv(localKafkaCredentials(env), 'orders') : {};
/** Its envelope keys: orders' own local signing key and the public keys it verifies with, as npm start hands them. */
const ordersSigningEnv = env.MESSAGE_SIGNING_KEY ? {} : localServiceSigningEnv('orders', env);
const brokers = env.KAFKA_BROKERS!.split(',');
const url = (name: ServiceName) => `http://127.0.0.1:${servicePort(serviceNamed(name), env)}`;
const urls: Record<ServiceName, string> = { orders: url('orders'), inventory: url('inventory'), loyalty: url('loyalty') };
const databaseOf = (name: ServiceName) => localDatabaseName(name, env);
const { issuer, authEnv } = await localIssuer(env);
// A token per API: each API accepts only tokens for its own audience.
const customerToken = (customerId: string, api: ServiceName = 'orders') => issuer.sign({ sub: customerId, api });
const adminToken = () => issuer.sign({ sub: 'demo-operator', scopes: [ADMIN_SCOPE], api: 'inventory' });

let stepNo = 0;
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s`;
function step(title: string): void {
  stepNo += 1;
  console.log(`\n[${elapsed()}] ${stepNo}. ${title}`);
}
function say(text: string): void {
  console.log(`          ${text}`);
}

class StepFailed extends Error {}

/** Waits for `probe` to return a value; fails the demo with `what` when it does not in time. */
async function expectSoon<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = STEP_TIMEOUT_MS,
): Promise<T> {
  try {
    return await waitFor(probe, { timeoutMs, intervalMs: 50, description: what });
  } catch (error) {
    throw new StepFailed(`${what} did not happen within ${timeoutMs} ms (${(error as Error).message})`);
  }
}

/** Awaits `promise`; fails the demo with `what` when it rejects (a wait that timed out). */
async function mustHappen<T>(what: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw new StepFailed(`${what} did not happen (${(error as Error).message})`);
  }
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new StepFailed(what);
}

const pools = new Map<string, pg.Pool>();
/** Reads a service's own database (as a human with psql would); the demo never writes to one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows only printed for a human, column by column, as psql would show them
async function sql<T = Record<string, any>>(database: ServiceName, text: string, params: unknown[] = []): Promise<T[]> {
  let pool = pools.get(database);
  if (!pool) {
    pool = new pg.Pool({ connectionString: databaseUrl(env.DATABASE_URL!, databaseOf(database)), max: 2 });
    pools.set(database, pool);
  }
  return (await pool.query(text, params)).rows as T[];
}

function traceIdOf(traceparent: string | undefined): string | undefined {
  return traceparent?.split('-')[1];
}

function describeRecord(record: RecordedMessage): string {
  return `${record.topic} partition ${record.partition} offset ${record.offset}, key ${record.key}`;
}

function showHeaders(record: RecordedMessage): void {
  for (const name of [Headers.messageId, Headers.messageType, Headers.correlationId, Headers.causationId, Headers.traceparent]) {
    if (record.headers[name]) say(`  ${name}: ${record.headers[name]}`);
  }
}

const cleanups: (() => Promise<unknown>)[] = [];

/** Puts `sku` on orders' price list at `cents` with the app's own seed command, as an operator would. */
async function seedPrice(sku: string, cents: number): Promise<void> {
  const seeded = await NodeProcess.outcome({
    entry: compiledEntry('orders', 'seed'),
    args: [`${sku}=${cents}`],
    cwd: findRepoRoot(),
    env: { ...env, DATABASE_NAME: databaseOf('orders') },
  });
  check(seeded.code === 0, `orders:seed exited ${seeded.code}: ${seeded.stderr}`);
  say(seeded.stdout.trim());
}

async function happyPath(): Promise<void> {
  step('The three services answer');
  for (const [name, base] of Object.entries(urls)) {
    await expectSoon(
      `${name} at ${base}/health to answer 200 (is \`npm start\` running?)`,
      async () => (await fetch(`${base}/health`).catch(() => undefined))?.ok,
      5_000,
    );
    say(`${name.padEnd(9)} ${base}`);
  }

  const sku = uniqueSku('DEMO-TEA');
  step(`Seed stock and a price: PUT ${urls.inventory}/stock/${sku} {available: 10}; npm run orders:seed -- ${sku}=1250`);
  const seeded = await requestJson('PUT', `${urls.inventory}/stock/${sku}`, { body: { available: 10 }, token: await adminToken() });
  check(seeded.status === 200, `seeding stock answered ${seeded.status}: ${seeded.text}`);
  say(`${sku}: ${JSON.stringify(seeded.body)}`);
  // Orders prices every line from its own price list: a request carries no price.
  await seedPrice(sku, 1250);

  // Read both topics from their current end: the demo sees exactly what its order causes.
  const orderEvents = await TopicRecorder.start({ brokers, topic: Topics.orders, from: await topicEndOffsets(brokers, Topics.orders) });
  const answers = await TopicRecorder.start({
    brokers,
    topic: Topics.reservations,
    from: await topicEndOffsets(brokers, Topics.reservations),
  });
  cleanups.push(
    () => orderEvents.stop(),
    () => answers.stop(),
  );

  const traceId = randomBytes(16).toString('hex');
  const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
  const customerId = uniqueName('demo-customer');
  const token = await customerToken(customerId);
  step(`Place an order as customer ${customerId} (the subject of the bearer token): POST /orders, with a W3C traceparent`);
  say(`traceparent: ${traceparent}`);
  const placed = await requestJson('POST', `${urls.orders}/orders`, {
    body: { items: [{ sku, quantity: 2 }] },
    headers: { 'Idempotency-Key': uniqueName('demo-key'), traceparent },
    token,
  });
  check(placed.status === 201, `POST /orders answered ${placed.status}: ${placed.text}`);
  const orderId = placed.body.id as string;
  say(`201 ${JSON.stringify({ id: orderId, status: placed.body.status, totalCents: placed.body.totalCents })}`);

  step('Outbox row, written in the same transaction as the order (orders.outbox_messages)');
  const [row] = await expectSoon('the OrderCreated outbox row', async () => {
    const rows = await sql(
      'orders',
      'SELECT id, message_type, created_at, published_at, headers FROM outbox_messages WHERE aggregate_id = $1',
      [orderId],
    );
    return rows.length > 0 ? rows : undefined;
  });
  say(`id ${row.id}, ${row.message_type}, stored traceparent ${row.headers[Headers.traceparent]}`);
  const published = await expectSoon('the relay to mark the row published', async () => {
    const [state] = await sql('orders', 'SELECT published_at FROM outbox_messages WHERE id = $1', [row.id]);
    return state?.published_at ? (state.published_at as Date) : undefined;
  });
  say(`published by the relay ${published.getTime() - new Date(row.created_at).getTime()} ms after the commit (LISTEN/NOTIFY wake-up)`);

  step(`Kafka record on ${Topics.orders}`);
  const [created] = await mustHappen('the OrderCreated record on Kafka', orderEvents.waitForKey(orderId, { timeoutMs: STEP_TIMEOUT_MS }));
  say(describeRecord(created));
  showHeaders(created);
  check(
    created.headers[Headers.messageId] === row.id,
    `the record's message-id ${created.headers[Headers.messageId]} is not the outbox row id ${row.id}`,
  );

  step("Inventory's inbox row and reservation, one transaction (inventory database)");
  const [inbox] = await expectSoon('the inbox row of the OrderCreated message', async () => {
    const rows = await sql(
      'inventory',
      'SELECT consumer, topic, partition, "offset", received_at FROM inbox_messages WHERE message_id = $1',
      [row.id],
    );
    return rows.length > 0 ? rows : undefined;
  });
  say(`inbox_messages: consumer ${inbox.consumer}, ${inbox.topic}[${inbox.partition}]@${inbox.offset}`);
  const [reservation] = await expectSoon('the reservation', async () => {
    const rows = await sql('inventory', 'SELECT status, items FROM reservations WHERE order_id = $1', [orderId]);
    return rows.length > 0 ? rows : undefined;
  });
  const [stock] = await sql('inventory', 'SELECT available, reserved FROM stock_items WHERE sku = $1', [sku]);
  say(
    `reservations: ${reservation.status} ${JSON.stringify(reservation.items)}; stock now available ${stock.available}, reserved ${stock.reserved}`,
  );

  step(`Inventory's answer on ${Topics.reservations}`);
  const [answer] = await mustHappen("inventory's answer on Kafka", answers.waitForKey(orderId, { timeoutMs: STEP_TIMEOUT_MS }));
  say(describeRecord(answer));
  showHeaders(answer);

  step('Loyalty command (inventory.loyalty_commands) and the accrual at loyalty');
  const commandId = `loyalty-accrual:${orderId}`;
  const command = await expectSoon('the loyalty command to be DONE', async () => {
    const [one] = await sql('inventory', 'SELECT status, attempts, points, traceparent FROM loyalty_commands WHERE id = $1', [commandId]);
    return one?.status === 'DONE' ? one : undefined;
  });
  say(`${commandId}: ${command.status} after ${command.attempts} call(s), ${command.points} points, traceparent ${command.traceparent}`);
  const accruals = await expectSoon('the accrual at loyalty', async () => {
    const listed = await requestJson('GET', `${urls.loyalty}/accruals`, { token: await customerToken(customerId, 'loyalty') });
    return listed.body?.items?.length > 0 ? listed.body : undefined;
  });
  say(
    `GET /accruals (as ${customerId}): ${JSON.stringify(accruals.items.map(({ orderId: id, points }: { orderId: string; points: number }) => ({ orderId: id, points })))}`,
  );

  step('Final status of the order');
  const final = await expectSoon('the order to reach RESERVED', async () => {
    const order = await requestJson('GET', `${urls.orders}/orders/${orderId}`, { token });
    return order.body?.status === 'RESERVED' ? order.body : undefined;
  });
  say(`GET /orders/${orderId}: ${final.status}`);

  step('One trace');
  const carriers = [
    ['OrderCreated record', traceIdOf(created.headers[Headers.traceparent])],
    ['answer record', traceIdOf(answer.headers[Headers.traceparent])],
    ['loyalty command', traceIdOf(command.traceparent ?? undefined)],
  ] as const;
  for (const [what, id] of carriers) say(`${what.padEnd(20)} trace id ${id}`);
  check(
    carriers.every(([, id]) => id === traceId),
    `not every step carried the trace id ${traceId}`,
  );
  say(`trace id ${traceId} from the request to the loyalty call; with OTEL_EXPORTER_OTLP_ENDPOINT set, find it in Jaeger`);
}

async function crashWindow(): Promise<void> {
  const sku = uniqueSku('DEMO-CAKE');
  const seeded = await requestJson('PUT', `${urls.inventory}/stock/${sku}`, { body: { available: 5 }, token: await adminToken() });
  check(seeded.status === 200, `seeding stock answered ${seeded.status}: ${seeded.text}`);
  await seedPrice(sku, 4200);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const key = uniqueName('demo-crash-key');
  // The demo's process consumes in groups of its own, positioned at the end, so killing it never
  // stalls the running orders service's consumer group while Kafka waits out a dead member.
  // Named `orders-...`: the orders principal may join only the groups of its own prefix.
  const groups = [uniqueName('orders-demo'), uniqueName('orders-demo')];
  for (const group of groups) await startGroupAtEnd(brokers, group, [Topics.reservations]);
  cleanups.push(() => deleteConsumerGroups(brokers, groups));
  const processEnv = (group: string): NodeJS.ProcessEnv => ({
    ...env,
    ...APP_PROCESS_ENV,
    ...ordersKafkaEnv,
    ...ordersSigningEnv,
    ...authEnv.orders,
    ORDERS_PORT: String(port),
    DATABASE_NAME: databaseOf('orders'),
    KAFKA_CONSUMER_GROUP: group,
    LOG_FORMAT: 'json',
  });
  const start = async (group: string, failpoints?: string) => {
    const app = new NodeProcess({
      name: 'demo-orders',
      entry: mainEntry(serviceNamed('orders')),
      cwd: findRepoRoot(),
      // Failpoints fire only in a process started for tests (a production process must not be killable by a variable): this one is, on purpose.
      env: { ...processEnv(group), ...(failpoints ? { FAILPOINTS: failpoints, FAILPOINTS_ENABLED: 'true', NODE_ENV: 'test' } : {}) },
    });
    cleanups.push(() => app.stop());
    await app.waitUntilHealthy(`${base}/health`, STEP_TIMEOUT_MS);
    return app;
  };

  // Unscoped: this process serves the demo alone. A scope is never the client's Idempotency-Key.
  const failpointSpec = OrdersFailpoints.afterCommitBeforeResponse;
  step(`Crash window: a second orders process on ${base} with FAILPOINTS=${failpointSpec}`);
  const doomed = await start(groups[0], failpointSpec);
  say(`started (pid ${doomed.child.pid}); it will SIGKILL itself after committing the order, before answering`);
  const customerId = uniqueName('demo-crash-customer');
  const token = await customerToken(customerId);
  const body = { items: [{ sku, quantity: 1 }] };

  step('POST /orders to it with Idempotency-Key: the connection breaks instead of an answer');
  const lost = await requestJson('POST', `${base}/orders`, { body, headers: { 'Idempotency-Key': key }, token }).then(
    (response) => `an answer (${response.status})`,
    (error: Error) => error,
  );
  check(lost instanceof Error, `the request got ${String(lost)} although the failpoint should have killed the process`);
  say(`client saw: ${(lost as Error).message}`);
  const exit = await doomed.waitForExit(STEP_TIMEOUT_MS);
  check(exit.signal === 'SIGKILL', `the process ended with ${describeExit(exit)}, not SIGKILL`);
  say(`process ${describeExit(exit)}`);
  const [committed] = await sql('orders', 'SELECT id, status FROM orders WHERE customer_id = $1', [customerId]);
  check(committed !== undefined, 'the order was not committed before the kill');
  say(
    `yet the order was committed before the kill: ${committed.id} (now ${committed.status}), with its outbox row; the running relay publishes it`,
  );

  step('Restart it without the failpoint; the client retries with the same Idempotency-Key');
  await start(groups[1]);
  const retry = await requestJson('POST', `${base}/orders`, { body, headers: { 'Idempotency-Key': key }, token });
  check(
    retry.status === 201 && retry.body?.id === committed.id,
    `the retry answered ${retry.status} ${retry.text}, not the committed order ${committed.id}`,
  );
  say(`201, Idempotent-Replayed: ${retry.headers.get('idempotent-replayed')}, same order id ${retry.body.id}`);

  step('The order completes, once');
  await expectSoon(
    'the crash-window order to reach RESERVED',
    async () => (await requestJson('GET', `${urls.orders}/orders/${committed.id}`, { token })).body?.status === 'RESERVED',
  );
  await expectSoon(
    'its loyalty command to be DONE',
    async () =>
      (await sql('inventory', "SELECT 1 FROM loyalty_commands WHERE order_id = $1 AND status = 'DONE'", [committed.id])).length === 1,
  );
  const [counts] = await sql(
    'orders',
    `SELECT (SELECT count(*)::int FROM orders WHERE customer_id = $1) AS orders,
    (SELECT count(*)::int FROM outbox_messages WHERE aggregate_id = $2 AND message_type = 'OrderCreated') AS events`,
    [customerId, committed.id],
  );
  const [reservations] = await sql('inventory', 'SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [committed.id]);
  const [accruals] = await sql('loyalty', 'SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [committed.id]);
  say(`orders ${counts.orders}, OrderCreated events ${counts.events}, reservations ${reservations.n}, accruals ${accruals.n}: RESERVED`);
  check(counts.orders === 1 && counts.events === 1 && reservations.n === 1 && accruals.n === 1, 'the order did not complete exactly once');
}

async function main(): Promise<number> {
  try {
    await happyPath();
    await crashWindow();
    console.log(`\n[${elapsed()}] Demo complete: every step happened.`);
    return 0;
  } catch (error) {
    console.error(
      `\n[${elapsed()}] DEMO FAILED at step ${stepNo}: ${error instanceof StepFailed ? error.message : (error as Error).stack}`,
    );
    return 1;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    for (const pool of pools.values()) await pool.end().catch(() => undefined);
  }
}

process.exitCode = await main();
