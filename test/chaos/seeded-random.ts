/**
 * A small seeded pseudo-random generator (mulberry32): every random choice of the chaos soak (the
 * orders, their retries and cancellations, the victims of the kills) comes from one seed, so a run
 * that found a bug can be replayed with the same decisions. The timing is a real system's and is
 * not replayed: the same seed gives the same script, not the same interleaving.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `items` in a random order (Fisher-Yates); `items` itself is left alone. */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }

  /**
   * An independent stream named `label` (each order, the kill schedule): its draws do not depend
   * on how many numbers other streams used, so concurrent tasks do not shift each other's choices.
   */
  fork(label: string): SeededRandom {
    let hash = this.seed >>> 0;
    for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193) >>> 0;
    return new SeededRandom(hash);
  }
}
