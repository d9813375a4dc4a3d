import { check } from './payload-checks.js';

export interface OrderLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface OrderCreated {
  orderId: string;
  customerId: string;
  items: OrderLine[];
  totalCents: number;
  createdAt: string;
}

export interface OrderCancelled {
  orderId: string;
  customerId: string;
  cancelledAt: string;
}

export const SKU_PATTERN = /^[A-Z0-9][A-Z0-9-]{0,63}$/;

const orderLine = check.object({
  sku: check.string({ pattern: SKU_PATTERN }),
  quantity: check.integer({ min: 1, max: 1000 }),
  unitPriceCents: check.integer({ min: 0 }),
});

export const OrderEvents = {
  OrderCreated: {
    type: 'OrderCreated',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      customerId: check.string({ maxLength: 64 }),
      items: check.array(orderLine, { min: 1, max: 50 }),
      totalCents: check.integer({ min: 0 }),
      createdAt: check.timestamp(),
    }),
  },
  OrderCancelled: {
    type: 'OrderCancelled',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      customerId: check.string({ maxLength: 64 }),
      cancelledAt: check.timestamp(),
    }),
  },
} as const;
