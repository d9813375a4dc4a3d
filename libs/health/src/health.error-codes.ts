/** Codes of a failed health probe (503), stable `DOMAIN.REASON` strings a monitor may branch on. */
export const HealthErrorCodes = {
  /** A dependency the probe checks does not answer; `error` names it. */
  DEPENDENCY_DOWN: 'HEALTH.DEPENDENCY_DOWN',
  /** The process is starting and waits for a dependency (`waitingFor` names them); every request gets it meanwhile. */
  STARTING: 'HEALTH.STARTING',
  /** The process received SIGTERM and drains: send traffic elsewhere. */
  SHUTTING_DOWN: 'HEALTH.SHUTTING_DOWN',
} as const;
