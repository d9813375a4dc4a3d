// Requests per order, beside the CPU per order: what one order costs Kafka (requests by API, from
// the apps' kafka_requests_total), Postgres (transactions from pg_stat_database; statements and
// round trips from the apps' postgres_statements_total and postgres_round_trips_total) and HTTP
// (every app's http_request_duration_seconds count, /metrics and /health apart). Read before and
// after each offered rate; the difference over the orders finished is the figure.
import pg from 'pg';

/** The counters of the loop at one instant. */
export interface RequestCounts {
  kafkaByApi: Record<string, number>;
  transactions: number;
  statements: number;
  roundTrips: number;
  httpByService: Record<string, number>;
}

export interface RequestsPerOrder {
  kafkaRequestsPerOrder: Record<string, number>;
  postgres: { transactionsPerOrder: number; statementsPerOrder: number; roundTripsPerOrder: number };
  httpRequestsPerOrder: Record<string, number>;
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

/** Requests per finished order between two readings; NaN everywhere when no order finished. */
export function requestsPerOrder(before: RequestCounts, after: RequestCounts, orders: number): RequestsPerOrder {
  const n = orders > 0 ? orders : Number.NaN;
  return {
    kafkaRequestsPerOrder: perOrder(before.kafkaByApi, after.kafkaByApi, n),
    postgres: {
      transactionsPerOrder: (after.transactions - before.transactions) / n,
      statementsPerOrder: (after.statements - before.statements) / n,
      roundTripsPerOrder: (after.roundTrips - before.roundTrips) / n,
    },
    httpRequestsPerOrder: perOrder(before.httpByService, after.httpByService, n),
  };
}

async function metricsText(baseUrl: string): Promise<string> {
  const response = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${baseUrl}/metrics answered ${response.status}`);
  return response.text();
}

/** Reads every counter: `apps` by name → base URL, `databases` are the loop's. */
export async function readRequestCounts(apps: Record<string, string>, serverUrl: string, databases: string[]): Promise<RequestCounts> {
  const kafkaByApi: Record<string, number> = {};
  const httpByService: Record<string, number> = {};
  let statements = 0;
  let roundTrips = 0;
  for (const [name, baseUrl] of Object.entries(apps)) {
    const text = await metricsText(baseUrl);
    statements += total(sumByLabel(text, 'postgres_statements_total', 'service'));
    roundTrips += total(sumByLabel(text, 'postgres_round_trips_total', 'service'));
    for (const [api, count] of Object.entries(sumByLabel(text, 'kafka_requests_total', 'api')))
      kafkaByApi[api] = (kafkaByApi[api] ?? 0) + count;
    const http = sumByLabel(text, 'http_request_duration_seconds_count', 'service', (labels) => OPERATIONS_ROUTES.has(labels.route));
    httpByService[name] = total(http);
  }
  const client = new pg.Client({ connectionString: serverUrl, application_name: 'bench-observer' });
  await client.connect();
  try {
    // pg_stat_database's counters are sent by each backend at the end of a transaction, at most
    // every PGSTAT_MIN_INTERVAL (1 s): a reading right after the load misses that last second, so
    // the caller reads after the settle wait, when the loop is idle again.
    const { rows } = await client.query<{ xacts: string }>(
      'SELECT COALESCE(sum(xact_commit + xact_rollback), 0)::text AS xacts FROM pg_stat_database WHERE datname = ANY($1)',
      [databases],
    );
    return { kafkaByApi, transactions: Number(rows[0].xacts), statements, roundTrips, httpByService };
  } finally {
    await client.end();
  }
}
