const RETRY_DELAY_MS = 200;

/**
 * Runs `attempt` until it resolves or `deadline` (epoch ms) passes, then rethrows the last error
 * with `what` in front. For the answers a cluster gives while it settles: NOT_CONTROLLER, a
 * coordinator still loading, "This server does not host this topic-partition" for a topic the
 * controller created and the broker has not heard of yet.
 */
export async function retryUntil<T>(deadline: number, what: string, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() + RETRY_DELAY_MS >= deadline) throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}
