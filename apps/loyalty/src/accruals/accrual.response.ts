import type { Accrual } from './accrual.entity.js';

export interface AccrualResponse {
  id: string;
  customerId: string;
  orderId: string;
  points: number;
  createdAt: string;
}

export function toAccrualResponse(accrual: Accrual): AccrualResponse {
  return {
    id: accrual.id,
    customerId: accrual.customerId,
    orderId: accrual.orderId,
    points: accrual.points,
    createdAt: accrual.createdAt.toISOString(),
  };
}
