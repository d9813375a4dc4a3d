/**
 * Topic names: `<context>.<aggregate>.v<N>`, one per aggregate type, so every event of one
 * aggregate shares a key and therefore a partition, and arrives in the order it was written.
 */
export const Topics = {
  orders: 'orders.order.v1',
  reservations: 'inventory.reservation.v1',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];
