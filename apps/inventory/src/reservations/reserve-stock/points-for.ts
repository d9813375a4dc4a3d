/** The loyalty points an order earns: one per whole currency unit of its total, rounded down. */
export function pointsFor(totalCents: number): number {
  return Math.floor(totalCents / 100);
}
