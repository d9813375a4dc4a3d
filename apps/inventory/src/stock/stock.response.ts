import { ApiProperty } from '@nestjs/swagger';
import type { StockItem } from './stock-item.entity.js';

/** Stock of one SKU: `available` can be reserved, `reserved` is held by orders. */
export class StockResponse {
  @ApiProperty({ example: 'SKU-APPLE' })
  sku: string;

  @ApiProperty({ example: 98 })
  available: number;

  @ApiProperty({ example: 2 })
  reserved: number;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export function toStockResponse(item: StockItem): StockResponse {
  return { sku: item.sku, available: item.available, reserved: item.reserved, updatedAt: item.updatedAt.toISOString() };
}
