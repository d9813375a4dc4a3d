import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@libs/database';

/** One entry of the price list, as the seed writes it. */
export interface ProductPrice {
  sku: string;
  unitPriceCents: number;
  name?: string;
}

/**
 * Orders' price list (`products`): the only source of a line's price. Written here (the seed, an
 * operator); read by `PlaceOrderService`, inside the order's own statement.
 */
@Injectable()
export class PriceList {
  constructor(private readonly tx: TransactionContext) {}

  /** Sets (or adds) the price of each product, in one transaction. */
  async setPrices(prices: readonly ProductPrice[]): Promise<void> {
    await this.tx.run(async (manager) => {
      for (const { sku, unitPriceCents, name } of prices) {
        await manager.query(
          `INSERT INTO products (sku, name, unit_price_cents) VALUES ($1, $2, $3)
           ON CONFLICT (sku) DO UPDATE SET name = coalesce(EXCLUDED.name, products.name), unit_price_cents = EXCLUDED.unit_price_cents, updated_at = now()`,
          [sku, name ?? null, unitPriceCents],
        );
      }
    });
  }
}
