export { Topics, type TopicName } from './topics.js';
export { codePointLength, oneOf, text, timestamp, tolerantRecord, uuid } from './field-schemas.js';
export { OrderLimits } from './order-limits.js';
export {
  OrderEvents,
  OrderFields,
  orderTotalCents,
  SKU_PATTERN,
  type OrderCreated,
  type OrderCancelled,
  type OrderLine,
} from './order-events.js';
export {
  ReservationEvents,
  ReservationLimits,
  RejectionCodes,
  rejectionReason,
  type RejectionCode,
  type ReservedLine,
  type StockReserved,
  type StockRejected,
  type StockReleased,
} from './reservation-events.js';
export {
  AccrualLimits,
  AccrualFields,
  LOYALTY_ACCRUALS_WRITE_SCOPE,
  AccrualRequestSchema,
  AccrualBatchFields,
  type AccrualRequest,
} from './loyalty-accruals.js';
export { ReversalRequestSchema, type ReversalRequest } from './loyalty-reversals.js';
