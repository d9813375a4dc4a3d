import type { Order } from './order.entity.js';

export interface OrderResponse {
  id: string;
  customerId: string;
  status: string;
  items: { sku: string; quantity: number; unitPriceCents: number }[];
  totalCents: number;
  rejection?: { code: string; reason: string };
  createdAt: string;
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
