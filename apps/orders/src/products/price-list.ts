import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';

/** One entry of the price list, as the seed writes it. */
export interface ProductPrice {
  sku: string;
  unitPriceCents: number;
  name?: string;
}

/**
 * Orders' price list (`products`): the only source of a line's price. Read inside the order's
 * transaction, so the prices an order is written with are the ones committed when it was placed.
 */
@Injectable()
export class PriceList {
  constructor(private readonly tx: TransactionContext) {}

  /** Unit prices in cents of those of `skus` that are on the list; an unknown SKU is absent from the map. */
  async pricesOf(skus: readonly string[]): Promise<Map<string, number>> {
    const manager = this.tx.requireManager('Pricing an order');
    const rows: { sku: string; unit_price_cents: string }[] = await manager.query(
      'SELECT sku, unit_price_cents FROM products WHERE sku = ANY($1::text[])',
      [[...new Set(skus)]],
    );
    return new Map(rows.map((row) => [row.sku, Number(row.unit_price_cents)]));
  }

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
