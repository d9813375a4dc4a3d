/**
 * True when `error` says no database connection could be had, not that a statement failed: every
 * pool connection stayed busy (or a new one did not answer) for `DATABASE_CONNECT_TIMEOUT_MS`, the
 * server refused the connection, or dropped it. The request did nothing, and the same request may
 * succeed a moment later: the HTTP layer answers 503 with Retry-After instead of 500, so a client
 * under overload backs off instead of counting a server fault.
 */
export function isConnectionUnavailable(error: unknown): boolean {
  for (let current = error as { message?: unknown; code?: unknown; cause?: unknown } | undefined; current;) {
    // pg-pool's own message for a connect that outlived connectionTimeoutMillis, busy pool included.
    if (current.message === 'timeout exceeded when trying to connect') return true;
    if (current.code === 'ECONNREFUSED' || current.message === 'Connection terminated unexpectedly') return true;
    current = current.cause as typeof current;
  }
  return false;
}
