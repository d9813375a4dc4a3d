/** What {@link armShutdownDeadline} needs of the process; `process` itself in production. */
export interface ShutdownSignals {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

/**
 * Bounds a graceful shutdown: once SIGTERM (or SIGINT) arrives, the process exits with code 1 after
 * `timeoutMs` if Nest's shutdown hooks (draining Kafka consumers, the relay's last cycle, closing
 * pools) have not ended it by then. Without a bound, a hook stuck on an unreachable broker keeps a
 * terminating pod alive until the orchestrator's SIGKILL, and nobody learns which one it was; with
 * it, the exit is the app's own decision, logged, and the deployment's grace period
 * (`terminationGracePeriodSeconds`, checked by test/deploy/k8s-manifests.int-spec.ts) can be set above
 * it. The timer is unref'd: a shutdown that finishes earlier exits at once.
 *
 * @param timeoutMs `HTTP_SHUTDOWN_TIMEOUT_MS`; default 20 s. Lower ends stuck shutdowns sooner but
 *   may cut off an inbox batch still retrying (its messages are redelivered, which the inbox absorbs).
 */
export function armShutdownDeadline(
  timeoutMs: number,
  signals: ShutdownSignals = process,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  const arm = () => {
    const timer = setTimeout(() => {
      console.error(`shutdown did not finish within HTTP_SHUTDOWN_TIMEOUT_MS=${timeoutMs}; exiting`);
      exit(1);
    }, timeoutMs);
    timer.unref();
  };
  signals.once('SIGTERM', arm);
  signals.once('SIGINT', arm);
}
