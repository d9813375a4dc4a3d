import type { AccessTokenSource } from './commands.options.js';

export type CallOutcome =
  { kind: 'accepted'; status: number } | { kind: 'rejected'; status: number; error: string } | { kind: 'retry'; error: string };

/**
 * 4xx answers that say "not now" rather than "never": request timeout, a concurrent request with
 * the same Idempotency-Key still in progress (how many partner APIs answer it), too early, rate
 * limited. Parking them would hand a human a command that only needed to wait.
 */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 409, 425, 429]);

/** What to do with a command after an HTTP answer with `status`. Exported for its unit test. */
export function classifyStatus(status: number): CallOutcome['kind'] {
  if (status >= 200 && status < 300) return 'accepted';
  // Our token expired or was revoked between fetch and use: a new one may well be accepted (the
  // sender drops the cached token). A 403, a token without the scope, is parked: it never will be.
  if (status === 401) return 'retry';
  if (status >= 400 && status < 500 && !RETRYABLE_CLIENT_ERRORS.has(status)) return 'rejected';
  return 'retry';
}

/** One attempt at a command: where, what, and under which key. */
export interface CommandCall {
  url: URL;
  /** The command id, sent as `Idempotency-Key`. */
  idempotencyKey: string;
  /** The stored JSON body, sent as it is. */
  body: unknown;
  timeoutMs: number;
  /** The calling span's W3C context, so the partner's server span joins the trace. */
  traceparent?: string;
  /** The caller's credentials, sent as `Authorization: Bearer`. */
  tokenSource: AccessTokenSource;
}

/**
 * One `POST` of a command with its id as `Idempotency-Key`. Classifies the answer: 2xx is done;
 * most 4xx will never succeed (park it for a human); 5xx, 401, 408/409/425/429, timeouts, network
 * errors and a token that could not be fetched may.
 */
export async function sendCommand(call: CommandCall): Promise<CallOutcome> {
  try {
    const token = await call.tokenSource.token();
    const response = await fetch(call.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': call.idempotencyKey,
        ...(call.traceparent ? { traceparent: call.traceparent } : {}),
      },
      body: JSON.stringify(call.body),
      signal: AbortSignal.timeout(call.timeoutMs),
    });
    const text = await response.text();
    if (response.status === 401) call.tokenSource.invalidate();
    const kind = classifyStatus(response.status);
    if (kind === 'accepted') return { kind, status: response.status };
    if (kind === 'rejected') return { kind, status: response.status, error: `HTTP ${response.status}: ${text.slice(0, 500)}` };
    return { kind, error: `HTTP ${response.status}: ${text.slice(0, 500)}` };
  } catch (error) {
    return { kind: 'retry', error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}
