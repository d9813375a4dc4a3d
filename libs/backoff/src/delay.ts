/** Resolves after `ms`. For backoff between attempts in production code, never for tests. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
