// The open-model load generator: every request leaves at its scheduled instant whether or not the
// earlier ones were answered (see open-model-schedule.ts), and remembers that instant, so latency
// is measured from when the client wanted to send, not from when a slow system let it.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { dueUntil, sendSchedule } from './open-model-schedule.js';

interface ScheduledRequest<T> {
  index: number;
  /** Wall-clock milliseconds (epoch) of the scheduled send: comparable with Postgres timestamps. */
  scheduledAtMs: number;
  /** How late the generator actually sent it, in ms (its own lag, reported so it can be judged). */
  sendLagMs: number;
  /** Wall-clock milliseconds when the answer arrived. */
  respondedAtMs: number;
  result: T;
}

export interface OpenModelResult<T> {
  requests: ScheduledRequest<T>[];
  startedAtMs: number;
  durationMs: number;
  /** The largest lag of a send behind its schedule: large values mean the generator, not the system, was late. */
  maxSendLagMs: number;
}

/** Sends `send(i)` at `ratePerSec` for `durationMs`, then awaits every answer. */
export async function openModelLoad<T>(
  ratePerSec: number,
  durationMs: number,
  send: (index: number) => Promise<T>,
): Promise<OpenModelResult<T>> {
  const schedule = sendSchedule(ratePerSec, durationMs);
  const startedAtMs = Date.now();
  const origin = performance.now();
  const inFlight: Promise<ScheduledRequest<T>>[] = [];
  let next = 0;
  let maxSendLagMs = 0;
  while (next < schedule.length) {
    const elapsed = performance.now() - origin;
    const due = dueUntil(schedule, next, elapsed);
    for (; next < due; next += 1) {
      const index = next;
      const sendLagMs = elapsed - schedule[index];
      maxSendLagMs = Math.max(maxSendLagMs, sendLagMs);
      inFlight.push(
        send(index).then((result) => ({
          index,
          scheduledAtMs: startedAtMs + schedule[index],
          sendLagMs,
          respondedAtMs: Date.now(),
          result,
        })),
      );
    }
    if (next < schedule.length) await sleep(Math.max(0, Math.min(5, schedule[next] - (performance.now() - origin))));
  }
  return { requests: await Promise.all(inFlight), startedAtMs, durationMs, maxSendLagMs };
}
