import { requestJson } from './http-json.js';

/** One line of `POST /orders`, as the orders API takes it. */
export interface OrderLineBody {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

/** The body of `POST /orders`. */
export interface PlaceOrderBody {
  customerId: string;
  items: OrderLineBody[];
}

/** An order as the orders API answers it (`POST /orders`, `GET /orders/:id`, cancel). */
export interface OrderView {
  id: string;
  customerId: string;
  status: string;
  items: OrderLineBody[];
  totalCents: number;
  /** Set once inventory rejected the order: a stable code such as `INVENTORY.UNKNOWN_SKU`. */
  rejection?: { code: string; reason: string };
  createdAt: string;
  updatedAt: string;
}

/** Options of {@link placeOrder}. */
export interface PlaceOrderOptions {
  /** Sent as the `Idempotency-Key` header; none by default. */
  idempotencyKey?: string;
  /** Abort the request after this long; default 30 s (see {@link requestJson}). */
  timeoutMs?: number;
}

/**
 * `POST <baseUrl>/orders` for a test whose subject is what follows the order, not the answer:
 * resolves with the created order, throws (with the answer) unless the status is 201. A test about
 * the answer itself (status codes, replay headers) calls {@link requestJson} and asserts on it.
 */
export async function placeOrder(baseUrl: string, body: PlaceOrderBody, options: PlaceOrderOptions = {}): Promise<OrderView> {
  const headers: Record<string, string> = options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
  const response = await requestJson<OrderView>('POST', `${baseUrl}/orders`, { body, headers, timeoutMs: options.timeoutMs });
  if (response.status !== 201) throw new Error(`POST ${baseUrl}/orders answered ${response.status}, not 201: ${response.text}`);
  return response.body;
}
