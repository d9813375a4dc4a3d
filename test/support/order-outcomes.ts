import { Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic } from '@libs/envelope';
import {
  customerToken,
  type OrderView,
  type PlaceOrderBody,
  placeOrderPayload,
  seedPrices,
  testInfrastructure,
  type TestServices,
} from '@test/fixtures';
import { queryTestDatabase, requestJson, type ServiceName, type ServiceProcess, type TopicRecorder, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from './inventory-with-loyalty.js';

/** What became of one `POST /orders`: refused up front, or accepted and settled. */
export type OrderOutcome =
  | { kind: 'refused'; status: number; code: unknown; fields: string[]; message: unknown }
  | {
      kind: 'settled';
      order: OrderView;
      cancelStatus?: number;
      reservation?: string;
      loyaltyCommand?: string;
      /** The status of the reversal command of a released reservation (its compensation). */
      loyaltyReversal?: string;
    };

const FINAL_STATES = ['RESERVED', 'REJECTED', 'CANCELLED'];

/**
 * The three services as real processes plus recorders of both dead-letter topics, and the checks
 * that every request must meet: refused with a 4xx that names a field, or its order reaches a
 * final state, nothing is dead-lettered, a reservation's loyalty command ends DONE, and a cancelled
 * order holds no stock and, when it was reserved, has its points reversed (reversal command DONE).
 */
export class OrderOutcomes {
  private constructor(
    readonly orders: ServiceProcess,
    readonly inventory: ServiceProcess,
    readonly loyalty: ServiceProcess,
    private readonly databases: { orders: string; inventory: string; loyalty: string },
    private readonly deadLetters: TopicRecorder[],
  ) {}

  static async start(services: TestServices, prefix: string): Promise<OrderOutcomes> {
    const { inventory, loyalty, databases } = await startInventoryWithLoyalty(services, prefix, { LOYALTY_RETRY_MAX_MS: '1000' });
    const ordersDatabase = await services.createDatabase(`${prefix}_orders`);
    const orders = await services.start({ service: 'orders', database: ordersDatabase });
    // After the starts: the services create their dead-letter topics when missing.
    const deadLetters = [
      await services.recordTopic(deadLetterTopic(Topics.orders)),
      await services.recordTopic(deadLetterTopic(Topics.reservations)),
    ];
    return new OrderOutcomes(orders, inventory, loyalty, { ...databases, orders: ordersDatabase }, deadLetters);
  }

  /** Puts `prices` (SKU to cents) on orders' price list. */
  async seedPrices(prices: Record<string, number>): Promise<void> {
    await seedPrices(testInfrastructure().serverUrl, this.databases.orders, prices);
  }

  sql(database: ServiceName, text: string, params: unknown[] = []) {
    return queryTestDatabase<Record<string, any>>(testInfrastructure().serverUrl, this.databases[database], text, params);
  }

  /**
   * Posts `body` as customer `body.customerId` (the token's subject; the rest is the request body),
   * then cancels the order at once when `cancel`, and waits until the order settled:
   * a final state, inventory done with it (a cancel applied), its loyalty command DONE. Throws with
   * the reason when any of that does not happen; a 5xx is never an acceptable answer.
   */
  /** `body.items` is sent as it is: a test of refusals may put there what the API must refuse. */
  async submit(
    body: { customerId: string; items: PlaceOrderBody['items'] | unknown[] },
    options: { cancel?: boolean; timeoutMs?: number } = {},
  ): Promise<OrderOutcome> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const token = await customerToken(body.customerId);
    const response = await requestJson<OrderView>('POST', `${this.orders.baseUrl}/orders`, { body: placeOrderPayload(body), token });
    if (response.status >= 400 && response.status < 500) {
      const refusal = response.body as { code?: unknown; fields?: string[]; message?: unknown } | undefined;
      return { kind: 'refused', status: response.status, code: refusal?.code, fields: refusal?.fields ?? [], message: refusal?.message };
    }
    if (response.status !== 201) throw new Error(`POST /orders answered ${response.status}: ${response.text}`);
    const id = response.body.id;
    let cancelStatus: number | undefined;
    if (options.cancel) {
      cancelStatus = (await requestJson('POST', `${this.orders.baseUrl}/orders/${id}/cancel`, { token })).status;
      if (cancelStatus !== 200 && cancelStatus !== 409) throw new Error(`cancel of ${id} answered ${cancelStatus}`);
    }
    const order = await waitFor(
      async () => {
        const view = (await requestJson<OrderView>('GET', `${this.orders.baseUrl}/orders/${id}`, { token })).body;
        return FINAL_STATES.includes(view.status) ? view : undefined;
      },
      { timeoutMs, intervalMs: 50, description: `order ${id} to reach a final state` },
    );
    if (order.status === 'CANCELLED') {
      // Inventory saw the cancel: it released the reservation, or remembered a cancel with nothing to release.
      await waitFor(
        async () => {
          const [reservation] = await this.sql('inventory', 'SELECT status FROM reservations WHERE order_id = $1', [id]);
          if (reservation) return reservation.status === 'RELEASED';
          return (await this.sql('inventory', 'SELECT 1 FROM cancelled_orders WHERE order_id = $1', [id])).length > 0;
        },
        { timeoutMs, intervalMs: 50, description: `inventory to apply the cancel of ${id}` },
      );
    }
    const [reservation] = await this.sql('inventory', 'SELECT status FROM reservations WHERE order_id = $1', [id]);
    const commandDone = (commandId: string) =>
      waitFor(
        async () => {
          const [command] = await this.sql('inventory', 'SELECT status, last_error FROM loyalty_commands WHERE id = $1', [commandId]);
          if (command?.status === 'PARKED') throw new Error(`loyalty command ${commandId} PARKED: ${command.last_error}`);
          return command?.status === 'DONE' ? (command.status as string) : undefined;
        },
        { timeoutMs, intervalMs: 50, description: `the loyalty command ${commandId} to be DONE` },
      );
    const earned = reservation && order.totalCents >= 100;
    const loyaltyCommand = earned ? await commandDone(`loyalty-accrual:${id}`) : undefined;
    const loyaltyReversal = earned && reservation.status === 'RELEASED' ? await commandDone(`loyalty-reversal:${id}`) : undefined;
    return { kind: 'settled', order, cancelStatus, reservation: reservation?.status, loyaltyCommand, loyaltyReversal };
  }

  /** Every dead letter recorded so far whose key is one of `orderIds` (should be none). */
  deadLettersOf(orderIds: string[]): { topic: string; key: string | null; reason?: string }[] {
    const wanted = new Set(orderIds);
    return this.deadLetters.flatMap((recorder) =>
      recorder.messages
        .filter((message) => message.key !== null && wanted.has(message.key))
        .map((message) => ({ topic: message.topic, key: message.key, reason: message.headers[DeadLetterHeaders.error] })),
    );
  }
}
