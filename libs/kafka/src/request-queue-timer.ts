import { createRequire } from 'node:module';

/** kafkajs 2.2.4's per-connection request queue, the part of it this workaround touches. */
interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs' own interval for a queue with requests waiting (`CHECK_PENDING_REQUESTS_INTERVAL`). */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/**
 * kafkajs 2.2.4's `scheduleCheckPendingRequests` with its timer loop removed (tulios/kafkajs#1751,
 * fix proposed in #1768). Unpatched, a queue that is not throttled (`throttledUntil` -1) schedules
 * its next check `-1 - Date.now()` ms ahead, which Node runs after 1 ms (and Node 24 reports as
 * `TimeoutNegativeWarning`); the check schedules the next one, so every broker connection wakes its
 * process a thousand times a second for as long as it is open, with nothing to do. Measured here: an
 * idle client with two connections used 19 ms of CPU a second, 1.5 ms with this. A check is now
 * scheduled only when it has something to do: requests waiting (kafkajs' 10 ms, or the end of a
 * broker's throttle), or a throttle to wait out.
 */
function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId) return;
  const throttleLeftMs = this.throttledUntil - Date.now();
  let delayMs: number;
  if (this.pending.length > 0) delayMs = throttleLeftMs > 0 ? throttleLeftMs : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (throttleLeftMs > 0) delayMs = throttleLeftMs;
  else return;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delayMs);
}

let installed = false;

/**
 * Installs {@link scheduleCheckPendingRequests} on kafkajs' RequestQueue, once per process (every
 * client this workspace builds goes through `createKafka`, which calls this). kafkajs is pinned to
 * 2.2.4 in package.json: a new version must be checked against this before the pin moves.
 */
export function installRequestQueueTimerFix(): void {
  if (installed) return;
  const RequestQueueClass = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueue;
  };
  RequestQueueClass.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  installed = true;
}
