import { type RejectionCode, RejectionCodes, rejectionReason, type StockRejected } from '@libs/contracts';

/**
 * What orders tells a customer for each rejection code, in its own words. The `reason` on the
 * wire is inventory's text for operators, and text from a topic is never shown to a customer: a
 * producer with a bug, or anyone who could write the topic, would speak through it. A code added
 * to `RejectionCodes` does not compile here until it has its text.
 */
const SUMMARIES: Record<RejectionCode, string> = {
  [RejectionCodes.UNKNOWN_SKU]: 'Some items are not sold',
  [RejectionCodes.INSUFFICIENT_STOCK]: 'Not enough stock',
  [RejectionCodes.ORDER_CANCELLED]: 'The order was cancelled before it could be reserved',
};

/**
 * The customer's text for a rejection: the code's summary, then the SKUs it is about when the
 * answer names them (validated against the SKU format by the contract), bounded like any reason.
 */
export function rejectionText(rejection: Pick<StockRejected, 'reasonCode' | 'skus'>): string {
  return rejectionReason(SUMMARIES[rejection.reasonCode], rejection.skus ?? []);
}
