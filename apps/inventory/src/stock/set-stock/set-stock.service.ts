import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@libs/database';
import { StockItem } from '../stock-item.entity.js';

@Injectable()
export class SetStockService {
  constructor(private readonly tx: TransactionContext) {}

  /** Sets the available units of a SKU, creating it when new. For demos, tests and the seed. */
  async set(sku: string, available: number): Promise<StockItem> {
    return this.tx.run(async (manager) => {
      await manager.query(
        `INSERT INTO stock_items (sku, available, reserved) VALUES ($1, $2, 0)
         ON CONFLICT (sku) DO UPDATE SET available = EXCLUDED.available, updated_at = now()`,
        [sku, available],
      );
      return manager.getRepository(StockItem).findOneByOrFail({ sku });
    });
  }
}
