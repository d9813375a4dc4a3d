import { PointsEntryResponse, toPointsEntryResponse } from '../points/points-entry.response.js';
import type { Reversal } from './reversal.entity.js';

/** One reversal: the points of an order's accrual, taken back. */
export class ReversalResponse extends PointsEntryResponse {}

export function toReversalResponse(reversal: Reversal): ReversalResponse {
  return toPointsEntryResponse(reversal);
}
