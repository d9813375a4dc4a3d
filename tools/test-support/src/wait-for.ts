export interface WaitForOptions {
  /** Give up after this long; the error names `description`. */
  timeoutMs?: number;
  /** Pause between attempts. */
  intervalMs?: number;
  description?: string;
}

/**
 * Polls `probe` until it returns a value other than `undefined`/`false`, or throws when the deadline
 * passes. Tests wait on conditions like this, never on fixed sleeps: fast when the system is fast,
 * patient when the machine is loaded, and explicit about what it waited for when it fails.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 100, description = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await probe();
      if (result !== undefined && result !== false) return result;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const suffix = lastError ? `; last error: ${(lastError as Error).message ?? lastError}` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${suffix}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
