// The orders the benchmark places: a few lines over a small catalogue of SKUs with ample stock,
// every total worth loyalty points, so every order takes the whole loop (reserve, answer, accrual).
import { randomUUID } from 'node:crypto';

/** SKUs seeded in every inventory the benchmark starts; spread so that no one stock row is the lock everybody waits on. */
export const BENCH_SKUS = Array.from({ length: 20 }, (_, index) => `BENCH-SKU-${String(index + 1).padStart(2, '0')}`);
/** Units per SKU: more than any run can reserve, so every order is RESERVED (none REJECTED for stock). */
export const BENCH_STOCK_PER_SKU = 100_000_000;

export interface OrderBody {
  customerId: string;
  items: { sku: string; quantity: number; unitPriceCents: number }[];
}

/** Order `n`: one to three distinct SKUs, one to three units each, prices 10.00 to 49.99. */
export function orderBody(n: number): OrderBody {
  const lines = 1 + (n % 3);
  const first = (n * 7) % BENCH_SKUS.length;
  return {
    customerId: `bench-customer-${n % 500}`,
    items: Array.from({ length: lines }, (_, line) => ({
      sku: BENCH_SKUS[(first + line * 3) % BENCH_SKUS.length],
      quantity: 1 + ((n + line) % 3),
      unitPriceCents: 1000 + ((n * 131 + line * 17) % 4000),
    })),
  };
}

export interface PostedOrder {
  status: number;
  orderId?: string;
  error?: string;
}

/** `POST <baseUrl>/orders` with a fresh `Idempotency-Key`, as a client that retries safely would send it. */
export async function postOrder(baseUrl: string, body: OrderBody, timeoutMs = 60_000): Promise<PostedOrder> {
  try {
    const response = await fetch(`${baseUrl}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (response.status !== 201) return { status: response.status, error: text.slice(0, 200) };
    return { status: 201, orderId: (JSON.parse(text) as { id: string }).id };
  } catch (error) {
    // fetch reports every network failure as "fetch failed"; the reason (ECONNRESET, a full
    // accept queue, a timeout) is in its cause.
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, error: `${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}` };
  }
}
