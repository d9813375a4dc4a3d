import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Order } from './order.entity.js';
import { OrderStatus } from './order-status.js';

export class OrderLineResponse {
  @ApiProperty({ example: 'SKU-APPLE' })
  sku: string;

  @ApiProperty({ example: 2 })
  quantity: number;

  @ApiProperty({ example: 1050 })
  unitPriceCents: number;
}

export class OrderRejectionResponse {
  @ApiProperty({ description: 'Stable code', example: 'INVENTORY.INSUFFICIENT_STOCK' })
  code: string;

  @ApiProperty({ example: 'SKU-RARE: 5 requested, 1 available' })
  reason: string;
}

/** An order as the API answers it. */
export class OrderResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'c1' })
  customerId: string;

  @ApiProperty({ enum: Object.values(OrderStatus), description: 'PENDING until inventory answers through Kafka' })
  status: string;

  @ApiProperty({ type: [OrderLineResponse] })
  items: OrderLineResponse[];

  @ApiProperty({ example: 2100 })
  totalCents: number;

  @ApiPropertyOptional({ type: OrderRejectionResponse, description: 'Set once inventory rejected the order' })
  rejection?: OrderRejectionResponse;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export function toOrderResponse(order: Order): OrderResponse {
  return {
    id: order.id,
    customerId: order.customerId,
    status: order.status,
    items: [...order.items]
      .sort((a, b) => a.lineNo - b.lineNo)
      .map(({ sku, quantity, unitPriceCents }) => ({ sku, quantity, unitPriceCents })),
    totalCents: order.totalCents,
    ...(order.rejectionCode ? { rejection: { code: order.rejectionCode, reason: order.rejectionReason ?? '' } } : {}),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}
