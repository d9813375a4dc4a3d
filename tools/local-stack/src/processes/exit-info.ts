/** How a process ended: an exit code, or the signal that killed it. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** `code 1` or `signal SIGKILL`, for log lines. */
export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
