// The orders the benchmark places: a few lines over a small catalogue of SKUs with ample stock,
// every total worth loyalty points, so every order takes the whole loop (reserve, answer, accrual).
import { randomUUID } from 'node:crypto';
import type { OrderLine } from '@libs/contracts';
import { type DevIssuer, queryTestDatabase } from '@tools/local-stack';
import { keepAlivePost } from './keep-alive-post.js';

/** SKUs seeded in every inventory the benchmark starts; spread so that no one stock row is the lock everybody waits on. */
export const BENCH_SKUS = Array.from({ length: 20 }, (_, index) => `BENCH-SKU-${String(index + 1).padStart(2, '0')}`);
/** Units per SKU: more than any run can reserve, so every order is RESERVED (none REJECTED for stock). */
export const BENCH_STOCK_PER_SKU = 100_000_000;

/** Unit prices in cents on the price list of every orders database the benchmark starts: 10.00 to 49.90. */
const BENCH_PRICES: Record<string, number> = Object.fromEntries(BENCH_SKUS.map((sku, index) => [sku, 1000 + index * 210]));

/** Puts {@link BENCH_PRICES} on the price list of the orders database `database` (orders prices every line from it). */
export async function seedBenchPrices(serverUrl: string, database: string): Promise<void> {
  await queryTestDatabase(
    serverUrl,
    database,
    `INSERT INTO products (sku, unit_price_cents) SELECT * FROM unnest($1::text[], $2::bigint[])
     ON CONFLICT (sku) DO UPDATE SET unit_price_cents = EXCLUDED.unit_price_cents`,
    [Object.keys(BENCH_PRICES), Object.values(BENCH_PRICES)],
  );
}

/** Customers the orders are spread over (each a token subject). */
const BENCH_CUSTOMERS = 500;

/** An order to place: its customer (who the token names; not sent in the body) and lines without price (the server sets it). */
export interface OrderBody {
  customerId: string;
  items: { sku: string; quantity: number }[];
}

/** The lines of `body` at {@link BENCH_PRICES}, as the orders service prices them. */
export function pricedLines(body: OrderBody): OrderLine[] {
  return body.items.map((line) => ({ ...line, unitPriceCents: BENCH_PRICES[line.sku] }));
}

/** Order `n`: one to three distinct SKUs, one to three units each. */
export function orderBody(n: number): OrderBody {
  const lines = 1 + (n % 3);
  const first = (n * 7) % BENCH_SKUS.length;
  return {
    customerId: benchCustomer(n % BENCH_CUSTOMERS),
    items: Array.from({ length: lines }, (_, line) => ({
      sku: BENCH_SKUS[(first + line * 3) % BENCH_SKUS.length],
      quantity: 1 + ((n + line) % 3),
    })),
  };
}

const benchCustomer = (index: number) => `bench-customer-${index}`;

/**
 * Every bench customer's access token, signed once before the load (ES256 signing is the client's
 * cost, not the server's; verifying each token is the server's, and is measured).
 */
export class CustomerTokens {
  private constructor(private readonly tokens: ReadonlyMap<string, string>) {}

  static async sign(issuer: DevIssuer): Promise<CustomerTokens> {
    const ids = Array.from({ length: BENCH_CUSTOMERS }, (_, index) => benchCustomer(index));
    return new CustomerTokens(
      new Map(
        await Promise.all(ids.map(async (sub) => [sub, await issuer.sign({ sub, api: 'orders', expiresInSeconds: 86_400 })] as const)),
      ),
    );
  }

  /** The token of `customerId`; throws for a customer {@link orderBody} never uses. */
  for(customerId: string): string {
    const token = this.tokens.get(customerId);
    if (!token) throw new Error(`no bench token for ${customerId}`);
    return token;
  }
}

export interface PostedOrder {
  status: number;
  orderId?: string;
  error?: string;
}

/**
 * `POST <baseUrl>/orders` as the body's customer (their token) with a fresh `Idempotency-Key`, as a
 * client that retries safely would send it.
 */
export async function postOrder(baseUrl: string, body: OrderBody, tokens: CustomerTokens, timeoutMs = 60_000): Promise<PostedOrder> {
  const outcome = await keepAlivePost(
    new URL('/orders', baseUrl),
    { 'idempotency-key': randomUUID(), authorization: `Bearer ${tokens.for(body.customerId)}` },
    JSON.stringify({ items: body.items }),
    timeoutMs,
  );
  if ('error' in outcome) return { status: 0, error: outcome.error };
  if (outcome.status !== 201) return { status: outcome.status, error: outcome.text.slice(0, 200) };
  return { status: 201, orderId: (JSON.parse(outcome.text) as { id: string }).id };
}
