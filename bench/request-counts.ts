// Requests per order, beside the CPU per order: what one order costs Kafka (requests by API, from
// the apps' kafka_requests_total), Postgres (transactions from pg_stat_database; statements and
// round trips from the apps' postgres_statements_total and postgres_round_trips_total; in all and
// per app, each app with its own database) and HTTP (every app's http_request_duration_seconds
// count, /metrics and /health apart). Read before and after each offered rate; the difference over
// the orders finished is the figure.
import pg from 'pg';

/** What one app cost Postgres up to one instant. */
interface PostgresCounts {
  transactions: number;
  statements: number;
  roundTrips: number;
}

/** The counters of the loop at one instant. */
export interface RequestCounts {
  kafkaByApi: Record<string, number>;
  /** Each app's share: the transactions of its database, the statements and round trips it sent. */
  postgresByService: Record<string, PostgresCounts>;
  httpByService: Record<string, number>;
  /** Requests the door refused, by the backlog figure past its bound (`http_requests_shed_total{signal}`), every app added up. */
  shedBySignal: Record<string, number>;
}

interface PostgresPerOrder {
  transactionsPerOrder: number;
  statementsPerOrder: number;
  roundTripsPerOrder: number;
}

export interface RequestsPerOrder {
  kafkaRequestsPerOrder: Record<string, number>;
  /** `byService`: which app's work the figures come from (a stage that lost its batching shows there first). */
  postgres: PostgresPerOrder & { byService: Record<string, PostgresPerOrder> };
  httpRequestsPerOrder: Record<string, number>;
}

/** One app to read: its base URL, and the database only it uses. */
export interface CountedApp {
  baseUrl: string;
  database: string;
}

/** Sums of `name`'s samples in Prometheus text, by the value of `label`; series matching `skip` are left out. */
function sumByLabel(text: string, name: string, label: string, skip: (labels: Record<string, string>) => boolean = () => false) {
  const sums: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    if (skip(labels)) continue;
    const key = labels[label] ?? '';
    sums[key] = (sums[key] ?? 0) + Number(match[3]);
  }
  return sums;
}

const total = (sums: Record<string, number>) => Object.values(sums).reduce((sum, value) => sum + value, 0);

const OPERATIONS_ROUTES = new Set(['/metrics', '/health', '/health/live', '/health/ready']);

/** (after - before) / orders, per key; a key absent before counts from 0. */
function perOrder(before: Record<string, number>, after: Record<string, number>, orders: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, value]) => [key, (value - (before[key] ?? 0)) / orders] as const)
      .filter(([, value]) => value > 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

function postgresPerOrder(before: PostgresCounts | undefined, after: PostgresCounts, orders: number): PostgresPerOrder {
  return {
    transactionsPerOrder: (after.transactions - (before?.transactions ?? 0)) / orders,
    statementsPerOrder: (after.statements - (before?.statements ?? 0)) / orders,
    roundTripsPerOrder: (after.roundTrips - (before?.roundTrips ?? 0)) / orders,
  };
}

/**
 * The requests refused between two readings, by the figure that refused them, most first: which
 * bound the door met (requests in flight, the event loop's lateness, the outbox, a pool) says what
 * bounded the goodput of an overload run.
 */
export function shedBetween(before: RequestCounts, after: RequestCounts): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after.shedBySignal)
      .map(([signal, count]) => [signal, count - (before.shedBySignal[signal] ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .sort(([, a], [, b]) => b - a),
  );
}

/** `shedBetween`'s counts as text, most first: `in_flight 812, event_loop_delay_ms 40`; `none` when empty. */
export function describeShed(bySignal: Record<string, number>): string {
  const entries = Object.entries(bySignal);
  return entries.length === 0 ? 'none' : entries.map(([signal, count]) => `${signal} ${count}`).join(', ');
}

/** Requests per finished order between two readings; NaN everywhere when no order finished. The loop's Postgres figures are its apps' added up. */
export function requestsPerOrder(before: RequestCounts, after: RequestCounts, orders: number): RequestsPerOrder {
  const n = orders > 0 ? orders : Number.NaN;
  const byService = Object.fromEntries(
    Object.entries(after.postgresByService).map(([app, counts]) => [app, postgresPerOrder(before.postgresByService[app], counts, n)]),
  );
  const sum = (figure: keyof PostgresPerOrder) => Object.values(byService).reduce((all, figures) => all + figures[figure], 0);
  return {
    kafkaRequestsPerOrder: perOrder(before.kafkaByApi, after.kafkaByApi, n),
    postgres: {
      transactionsPerOrder: sum('transactionsPerOrder'),
      statementsPerOrder: sum('statementsPerOrder'),
      roundTripsPerOrder: sum('roundTripsPerOrder'),
      byService,
    },
    httpRequestsPerOrder: perOrder(before.httpByService, after.httpByService, n),
  };
}

async function metricsText(baseUrl: string): Promise<string> {
  const response = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${baseUrl}/metrics answered ${response.status}`);
  return response.text();
}

/** Reads every counter of `apps`, by name. */
export async function readRequestCounts(apps: Record<string, CountedApp>, serverUrl: string): Promise<RequestCounts> {
  const kafkaByApi: Record<string, number> = {};
  const httpByService: Record<string, number> = {};
  const postgresByService: Record<string, PostgresCounts> = {};
  const shedBySignal: Record<string, number> = {};
  for (const [name, { baseUrl }] of Object.entries(apps)) {
    const text = await metricsText(baseUrl);
    postgresByService[name] = {
      transactions: 0,
      statements: total(sumByLabel(text, 'postgres_statements_total', 'service')),
      roundTrips: total(sumByLabel(text, 'postgres_round_trips_total', 'service')),
    };
    for (const [api, count] of Object.entries(sumByLabel(text, 'kafka_requests_total', 'api')))
      kafkaByApi[api] = (kafkaByApi[api] ?? 0) + count;
    const http = sumByLabel(text, 'http_request_duration_seconds_count', 'service', (labels) => OPERATIONS_ROUTES.has(labels.route));
    httpByService[name] = total(http);
    for (const [signal, count] of Object.entries(sumByLabel(text, 'http_requests_shed_total', 'signal')))
      shedBySignal[signal] = (shedBySignal[signal] ?? 0) + count;
  }
  const client = new pg.Client({ connectionString: serverUrl, application_name: 'bench-observer' });
  await client.connect();
  try {
    // pg_stat_database's counters are sent by each backend at the end of a transaction, at most
    // every PGSTAT_MIN_INTERVAL (1 s): a reading right after the load misses that last second, so
    // the caller reads after the settle wait, when the loop is idle again.
    const { rows } = await client.query<{ datname: string; xacts: string }>(
      'SELECT datname, (xact_commit + xact_rollback)::text AS xacts FROM pg_stat_database WHERE datname = ANY($1)',
      [Object.values(apps).map((app) => app.database)],
    );
    for (const [name, { database }] of Object.entries(apps))
      postgresByService[name].transactions = Number(rows.find((row) => row.datname === database)?.xacts ?? 0);
    return { kafkaByApi, postgresByService, httpByService, shedBySignal };
  } finally {
    await client.end();
  }
}
