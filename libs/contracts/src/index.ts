export { Topics, deadLetterTopic, type TopicName } from './topics.js';
export { Headers, DeadLetterHeaders } from './headers.js';
export { check, codePointLength, type Check, type JsonSchema } from './payload-checks.js';
export { OrderLimits } from './order-limits.js';
export { OrderEvents, OrderChecks, SKU_PATTERN, type OrderCreated, type OrderCancelled, type OrderLine } from './order-events.js';
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
export { AccrualLimits, AccrualChecks, accrualRequestCheck, type AccrualRequest } from './loyalty-accruals.js';
export { MessageCatalog, messageProblems, type MessageDefinition, type MessageType, type OutgoingMessage } from './message-catalog.js';
export { canonicalJson } from './canonical-json.js';
