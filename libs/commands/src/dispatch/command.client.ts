import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AccessTokenSource } from '../command.options.js';

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

/**
 * Kept-alive connections to the partner, at most `maxSockets` of them (the dispatcher passes its
 * concurrency, so a call never waits for a socket and the partner never sees more connections than
 * calls in flight). Why: a new TCP connection per call cost the partner an accept and a handshake
 * per command. A kept socket the partner closes while idle
 * fails at most the call that picked it up, as a network error: that call is retried with the same
 * Idempotency-Key, which the partner answers from its stored response. Close with {@link destroy}.
 */
export class PartnerConnections {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;

  constructor(maxSockets: number) {
    // scheduling 'lifo': under a light load the most recently used sockets stay warm and the rest
    // time out, instead of every socket being kept barely alive.
    const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
    this.http = new HttpAgent(options);
    this.https = new HttpsAgent(options);
  }

  /** Closes every socket; calls in flight fail as network errors (and are retried). */
  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** Where and how to reach the partner: what every call, single or batch, needs. */
export interface PartnerCall {
  url: URL;
  timeoutMs: number;
  /** The calling span's W3C context, so the partner's server span joins the trace. */
  traceparent?: string;
  /** The caller's credentials, sent as `Authorization: Bearer`. */
  tokenSource: AccessTokenSource;
  /** The pool of kept-alive connections; without it, one connection per call (Node's default agent). */
  connections?: PartnerConnections;
}

/** One attempt at a command: where, what, and under which key. */
export interface CommandCall extends PartnerCall {
  /** The command id, sent as `Idempotency-Key`. */
  idempotencyKey: string;
  /** The stored JSON body, sent as it is. */
  body: unknown;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * A `POST` over `node:http(s)`, answered with its status and body text; rejects on a network error
 * or when `timeoutMs` passes before the body has arrived in full. Not `fetch`: its streams and
 * header objects cost CPU on every call, and the kept-alive pool above needs an agent
 * (docs/decisions/0301-coalesced-marks.md has the figure of the two changes together).
 */
function post(call: PartnerCall, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
  const https = call.url.protocol === 'https:';
  const agent = https ? call.connections?.https : call.connections?.http;
  return new Promise((resolve, reject) => {
    const request = (https ? httpsRequest : httpRequest)(
      call.url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', fail);
      },
    );
    // One deadline for the whole exchange, as fetch's AbortSignal.timeout gave: connect, send, answer.
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`no answer within ${call.timeoutMs} ms`), { name: 'TimeoutError' }));
    }, call.timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    request.on('error', fail);
    request.end(body);
  });
}

/**
 * One `POST` of a JSON body with the caller's token: the partner's answer, or the error that
 * prevented one (a network error, a timeout, a token that could not be fetched). A 401 drops the
 * cached token, so the next attempt fetches a new one.
 */
export async function exchange(call: PartnerCall, headers: Record<string, string>, body: string): Promise<HttpAnswer | { error: string }> {
  try {
    const token = await call.tokenSource.token();
    const answer = await post(
      call,
      {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...headers,
        ...(call.traceparent ? { traceparent: call.traceparent } : {}),
      },
      body,
    );
    if (answer.status === 401) call.tokenSource.invalidate();
    return answer;
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** What to do after the partner's answer (see {@link classifyStatus}), with its text as the error. */
export function answerOutcome({ status, text }: HttpAnswer): CallOutcome {
  const kind = classifyStatus(status);
  if (kind === 'accepted') return { kind, status };
  if (kind === 'rejected') return { kind, status, error: `HTTP ${status}: ${text.slice(0, 500)}` };
  return { kind, error: `HTTP ${status}: ${text.slice(0, 500)}` };
}

/**
 * One `POST` of a command with its id as `Idempotency-Key`. Classifies the answer: 2xx is done;
 * most 4xx will never succeed (park it for a human); 5xx, 401, 408/409/425/429, timeouts, network
 * errors and a token that could not be fetched may.
 */
export async function sendCommand(call: CommandCall): Promise<CallOutcome> {
  const answer = await exchange(call, { 'idempotency-key': call.idempotencyKey }, JSON.stringify(call.body));
  return 'error' in answer ? { kind: 'retry', error: answer.error } : answerOutcome(answer);
}
