import { customerToken, type OrderLineBody, type PlaceOrderBody, placeOrderPayload } from '@test/fixtures';
import { requestJson } from '@tools/local-stack';
import type { SeededRandom } from './seeded-random.js';

/** What the client of one order saw. */
export interface OrderOutcome {
  index: number;
  idempotencyKey: string;
  body: PlaceOrderBody;
  /** Every order id a 201 answered for this key: more than one is a second order for the key. */
  orderIds: string[];
  /** Requests sent for the order (first try, retries, deliberate repeats). */
  requests: number;
  /** Sent once more after its 201, as a client whose answer was lost would. */
  repeatedAfter201?: boolean;
  /** A 4xx or other answer that a valid request with a fresh key should never get. */
  refused?: { status: number; text: string };
  /** The client gave up (no 201 before its deadline): not acknowledged, so not owed. */
  gaveUp?: string;
  /** The cancel the client asked for and what it got: `acknowledged` (200) must end CANCELLED. */
  cancel?: 'acknowledged' | 'not-cancellable' | 'not-found' | 'gave-up' | { status: number; text: string };
}

/** How the load behaves. */
export interface OrderLoadOptions {
  /** The orders replicas; each request picks one at random, as a load balancer would. */
  ordersUrls: string[];
  orders: number;
  rate: number;
  cancelRatio: number;
  skus: string[];
  random: SeededRandom;
  /** How long one order's client keeps retrying before it gives up. Default 150 s. */
  retryDeadlineMs?: number;
  /** Per-request timeout: a request that takes longer is retried with the same key. Default 5 s. */
  requestTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 5xx, or no answer at all (connection refused or reset, timeout): the same request may be sent again. */
type Attempt<T> = { kind: 'answer'; status: number; body: T; text: string } | { kind: 'retry'; reason: string };

async function send<T>(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  token: string,
  timeoutMs: number,
): Promise<Attempt<T>> {
  try {
    const response = await requestJson<T>(method, url, { body, headers, token, timeoutMs });
    if (response.status >= 500) return { kind: 'retry', reason: `${response.status} ${response.text.slice(0, 200)}` };
    return { kind: 'answer', status: response.status, body: response.body, text: response.text };
  } catch (error) {
    return { kind: 'retry', reason: (error as Error).message };
  }
}

/** What {@link loadOnCluster} needs of the system under test: where orders are placed, and the SKUs it stocked. */
interface LoadTarget {
  readonly ordersUrls: string[];
  readonly initialStock: ReadonlyMap<string, number>;
}

/** {@link runOrderLoad} over every orders replica of `cluster`, on the SKUs it stocked. */
export function loadOnCluster(
  cluster: LoadTarget,
  options: Pick<OrderLoadOptions, 'orders' | 'rate' | 'cancelRatio' | 'random'>,
): Promise<OrderOutcome[]> {
  return runOrderLoad({ ...options, ordersUrls: cluster.ordersUrls, skus: [...cluster.initialStock.keys()] });
}

/**
 * Places `orders` orders at `rate` per second, each with its own `Idempotency-Key`, as a careful
 * client would: a timeout, a refused connection or a 5xx is retried with the SAME key and body
 * (on any replica, after a short backoff) until a 201 or the deadline. One order in ten is sent
 * once more after its 201, as when the answer is lost on the way back: it must answer the same
 * order. A share of the acknowledged orders is then cancelled, with retries too.
 */
async function runOrderLoad(options: OrderLoadOptions): Promise<OrderOutcome[]> {
  const started = Date.now();
  const tasks: Promise<OrderOutcome>[] = [];
  for (let index = 0; index < options.orders; index++) {
    const startAt = started + (index * 1000) / options.rate;
    if (Date.now() < startAt) await sleep(startAt - Date.now());
    tasks.push(placeOne(index, options, options.random.fork(`order-${index}`)));
  }
  return Promise.all(tasks);
}

function orderBody(random: SeededRandom, skus: string[]): PlaceOrderBody {
  const lines: OrderLineBody[] = random
    .shuffle(skus)
    .slice(0, random.int(1, 3))
    // No price: orders prices the lines (every SKU of the soak at 100 cents or more, so every
    // reserved order earns at least one loyalty point, and has one accrual).
    .map((sku) => ({ sku, quantity: random.int(1, 4) }));
  return { customerId: `chaos-customer-${random.int(1, 50)}`, items: lines };
}

async function placeOne(index: number, options: OrderLoadOptions, random: SeededRandom): Promise<OrderOutcome> {
  const timeoutMs = options.requestTimeoutMs ?? 5000;
  const deadline = Date.now() + (options.retryDeadlineMs ?? 150_000);
  const outcome: OrderOutcome = {
    index,
    idempotencyKey: `chaos-${options.random.seed}-${index}`,
    body: orderBody(random, options.skus),
    orderIds: [],
    requests: 0,
  };
  const headers = { 'Idempotency-Key': outcome.idempotencyKey };
  // The customer signs every request of the order with their own token, the cancel included.
  const token = await customerToken(outcome.body.customerId);
  const post = async (): Promise<boolean> => {
    for (let attempt = 1; ; attempt++) {
      outcome.requests++;
      const result = await send<{ id: string }>(
        'POST',
        `${random.pick(options.ordersUrls)}/orders`,
        placeOrderPayload(outcome.body),
        headers,
        token,
        timeoutMs,
      );
      if (result.kind === 'answer' && result.status === 201) {
        if (!outcome.orderIds.includes(result.body.id)) outcome.orderIds.push(result.body.id);
        return true;
      }
      if (result.kind === 'answer') {
        outcome.refused = { status: result.status, text: result.text.slice(0, 300) };
        return false;
      }
      if (Date.now() > deadline) {
        outcome.gaveUp = result.reason;
        return false;
      }
      await sleep(random.int(100, 300) * Math.min(attempt, 5));
    }
  };
  if (!(await post())) return outcome;
  if (random.chance(0.1)) {
    outcome.repeatedAfter201 = true;
    await post();
  }
  if (random.chance(options.cancelRatio)) {
    await sleep(random.int(0, 2000));
    outcome.cancel = await cancel(outcome.orderIds[0], token, options, random, deadline, timeoutMs);
  }
  return outcome;
}

async function cancel(
  orderId: string,
  token: string,
  options: OrderLoadOptions,
  random: SeededRandom,
  deadline: number,
  timeoutMs: number,
): Promise<NonNullable<OrderOutcome['cancel']>> {
  for (let attempt = 1; ; attempt++) {
    const result = await send('POST', `${random.pick(options.ordersUrls)}/orders/${orderId}/cancel`, undefined, {}, token, timeoutMs);
    if (result.kind === 'answer') {
      if (result.status === 200 || result.status === 201) return 'acknowledged';
      if (result.status === 409) return 'not-cancellable';
      if (result.status === 404) return 'not-found';
      return { status: result.status, text: result.text.slice(0, 300) };
    }
    if (Date.now() > deadline) return 'gave-up';
    await sleep(random.int(100, 300) * Math.min(attempt, 5));
  }
}
