import type { LoyaltyCommand } from './loyalty-command.entity.js';

export type CallOutcome =
  | { kind: 'accepted'; status: number }
  | { kind: 'rejected'; status: number; error: string }
  | { kind: 'retry'; error: string };

/**
 * 4xx answers that say "not now" rather than "never": request timeout, a concurrent request with
 * the same Idempotency-Key still in progress (how many partner APIs answer it), too early, rate
 * limited. Parking them would hand a human a command that only needed to wait.
 */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 409, 425, 429]);

/** What to do with a command after an HTTP answer with `status`. Exported for its unit test. */
export function classifyStatus(status: number): CallOutcome['kind'] {
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 400 && status < 500 && !RETRYABLE_CLIENT_ERRORS.has(status)) return 'rejected';
  return 'retry';
}

/**
 * One `POST /accruals` with the command id as `Idempotency-Key` and the caller's span as `traceparent`. Classifies the answer: 2xx is
 * done; most 4xx will never succeed (park it for a human); 5xx, 408/409/425/429, timeouts and
 * network errors may.
 */
export async function sendAccrual(
  baseUrl: string,
  command: Pick<LoyaltyCommand, 'id' | 'customerId' | 'orderId' | 'points'>,
  timeoutMs: number,
  traceparent?: string,
): Promise<CallOutcome> {
  try {
    const response = await fetch(new URL('/accruals', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': command.id, ...(traceparent ? { traceparent } : {}) },
      body: JSON.stringify({ customerId: command.customerId, orderId: command.orderId, points: command.points }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const kind = classifyStatus(response.status);
    if (kind === 'accepted') return { kind, status: response.status };
    if (kind === 'rejected') return { kind, status: response.status, error: `HTTP ${response.status}: ${text.slice(0, 500)}` };
    return { kind, error: `HTTP ${response.status}: ${text.slice(0, 500)}` };
  } catch (error) {
    return { kind: 'retry', error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}
