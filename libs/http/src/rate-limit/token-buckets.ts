/** Options of {@link TokenBuckets}. */
export interface TokenBucketOptions {
  /** Requests a key may make at once after a quiet spell (the bucket's size). */
  capacity: number;
  /** Requests per second a key may make sustained (the refill). */
  refillPerSecond: number;
  /**
   * Keys remembered at most; default 100,000 (a few MB). Past it, keys whose bucket has refilled
   * are forgotten first (the same as a full bucket), then the least recently seen: memory is
   * bounded whatever number of callers, at the cost of a fresh burst for a forgotten one.
   */
  maxKeys?: number;
  /** Clock in milliseconds; default `performance.now`. */
  now?: () => number;
}

/** A request let through, or refused with the whole seconds until the key has a token again. */
export type TokenTake = { taken: true } | { taken: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per key (a caller), in this process's memory: each request takes a token, a
 * bucket refills at `refillPerSecond` up to `capacity`. Bursts up to `capacity` pass, the
 * sustained rate is bounded, and a refused caller is told exactly when to come back. Per process:
 * with N replicas behind a balancer a caller gets up to N times the rate; a limit shared by every
 * replica needs a shared store (Redis, Postgres) and a round trip per request.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(private readonly options: TokenBucketOptions) {
    if (!(options.capacity >= 1) || !(options.refillPerSecond > 0)) {
      throw new RangeError(
        `a token bucket needs capacity >= 1 and refillPerSecond > 0, got ${options.capacity} and ${options.refillPerSecond}`,
      );
    }
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Takes a token of `key`'s bucket, or says how long until one is there. */
  take(key: string): TokenTake {
    const now = this.now();
    const known = this.buckets.get(key);
    const tokens = known ? this.tokensAt(known, now) : this.options.capacity;
    if (known) this.buckets.delete(key);
    else this.makeRoom(now);
    // Re-inserted on every take: the map's order is then least recently seen first.
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return { taken: true };
    }
    this.buckets.set(key, { tokens, at: now });
    return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.options.refillPerSecond)) };
  }

  /** Keys remembered now (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private tokensAt(bucket: Bucket, now: number): number {
    return Math.min(this.options.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.options.refillPerSecond);
  }

  private makeRoom(now: number): void {
    if (this.buckets.size < this.maxKeys) return;
    for (const [key, bucket] of this.buckets) {
      if (this.tokensAt(bucket, now) >= this.options.capacity) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(key);
    }
  }
}
