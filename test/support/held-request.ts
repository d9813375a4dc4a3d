import { request as httpRequest } from 'node:http';

/** The answer to a held request, once its body was finished. */
export interface HeldAnswer {
  status: number;
  body: unknown;
}

/** A request whose headers and first half of the body reached the server, the rest not yet sent. */
export interface HeldRequest {
  /** Sends the rest of the body and resolves with the answer. */
  finish(): Promise<HeldAnswer>;
}

/**
 * Opens a request with the whole body's `Content-Length` and sends only the first half of it: the
 * server has run its `onRequest` hooks (the request counts as in flight) but cannot parse the body,
 * authenticate or handle it until {@link HeldRequest.finish}. This keeps a server's in-flight count
 * exactly where a test wants it for as long as it wants, where a flood of ordinary requests leaves
 * it to timing. One connection per request (no agent), so a held socket delays nothing else.
 */
export function holdRequest(url: string, options: { method: string; headers: Record<string, string>; body: string }): HeldRequest {
  const payload = Buffer.from(options.body, 'utf8');
  const half = Math.floor(payload.length / 2);
  const outgoing = httpRequest(url, {
    method: options.method,
    agent: false,
    headers: { ...options.headers, 'content-length': String(payload.length) },
  });
  const answer = new Promise<HeldAnswer>((resolve, reject) => {
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // Not JSON: keep the text.
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
  });
  // An answer before finish() (a refusal) must not surface as an unhandled rejection meanwhile.
  answer.catch(() => undefined);
  outgoing.flushHeaders();
  outgoing.write(payload.subarray(0, half));
  return {
    finish: () => {
      outgoing.end(payload.subarray(half));
      return answer;
    },
  };
}
