export { Topics, deadLetterTopic, type TopicName } from './topics.js';
export { Headers, DeadLetterHeaders } from './headers.js';
export { check, type Check } from './payload-checks.js';
export { OrderEvents, SKU_PATTERN, type OrderCreated, type OrderCancelled, type OrderLine } from './order-events.js';
export {
  ReservationEvents,
  RejectionCodes,
  type RejectionCode,
  type ReservedLine,
  type StockReserved,
  type StockRejected,
  type StockReleased,
} from './reservation-events.js';
export { MessageCatalog, type MessageDefinition, type MessageType } from './message-catalog.js';
export { canonicalJson } from './canonical-json.js';
