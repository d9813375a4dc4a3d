import { performance } from 'node:perf_hooks';
import type { BacklogProbe } from './backlog-reading.js';

/** How often the loop is checked: one timer callback this often is the probe's whole cost. */
const CHECK_INTERVAL_MS = 20;

/**
 * `event_loop_delay_ms`: how late, on average, a timer of this process ran since the previous read,
 * in milliseconds. It sees what the in-flight count cannot: requests still in the kernel's socket
 * buffers because the loop is too busy to read them. The mean, not the maximum, so one garbage
 * collection pause does not shed; a loop that is late all the time does. Measured with its own
 * timer rather than `monitorEventLoopDelay`: that histogram's samples are whole intervals (its
 * resolution plus the lateness), and on Node 24 it never samples its first interval, so a 300 ms
 * block right after `enable()` left no trace in it (checked: a block 200 ms later is recorded).
 * The timer starts when the probe is made (never at import), does not keep the process alive, and
 * stops on `close`; `restart` forgets what was measured so far (the sampler calls it when the
 * server starts listening). A process is late by itself while it warms up, so the reading refuses
 * requests only while requests are in flight (`whileRequestsInFlight`, see `BacklogSampler`).
 */
export function eventLoopDelayProbe(boundMs: number): BacklogProbe {
  let last = performance.now();
  let lateSum = 0;
  let checks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    lateSum += Math.max(0, now - last - CHECK_INTERVAL_MS);
    checks += 1;
    last = now;
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return {
    read: async () => {
      const meanMs = checks > 0 ? lateSum / checks : 0;
      lateSum = 0;
      checks = 0;
      return [{ signal: 'event_loop_delay_ms', value: meanMs, bound: boundMs, whileRequestsInFlight: true }];
    },
    close: () => clearInterval(timer),
    restart: () => {
      last = performance.now();
      lateSum = 0;
      checks = 0;
    },
  };
}
