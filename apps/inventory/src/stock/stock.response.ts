import type { StockItem } from './stock-item.entity.js';

export function toStockResponse(item: StockItem) {
  return { sku: item.sku, available: item.available, reserved: item.reserved, updatedAt: item.updatedAt.toISOString() };
}
