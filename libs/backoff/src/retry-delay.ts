/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so replicas and
 * rows that failed together do not retry in lock-step, yet no retry comes sooner than half the step.
 */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}
