// The order in which a round measures several servers: forward, then backward, so that no server
// is always measured first (on a machine still settling) or always right after the same neighbour.

/** `items` in the order of round `round` (from 0): as given on even rounds, reversed on odd ones. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...items] : [...items].reverse();
}
