// The load generator's HTTP client: node:http over keep-alive connections, not `fetch`. The
// generator shares the machine's cores with the loop it measures, so whatever it spends per request
// is taken from the system under test; `fetch` (undici behind the WHATWG API, an AbortSignal timer
// per request) costs twice what node:http does or more, and at four times the loop's capacity it
// took about a fifth of the two cores (docs/decisions/0016-a-load-generator-that-leaves-the-cpu-to-the-loop.md).
import http from 'node:http';

/** One pool for the process, as `fetch` had: a connection per concurrent request, reused once answered. */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

export type PostOutcome = { status: number; text: string } | { error: string };

/**
 * `POST url` with a JSON `body`, answered with the status and the whole response text; a network
 * failure or no complete answer within `timeoutMs` is an `error` naming its cause (ECONNRESET, a
 * full accept queue, the timeout), never a throw.
 */
export function keepAlivePost(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const fail = (error: NodeJS.ErrnoException) => settle({ error: `${error.message}${error.code ? ` (${error.code})` : ''}` });
    const request = http.request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => settle({ status: response.statusCode ?? 0, text }));
        response.on('error', fail);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', fail);
    request.end(body);
  });
}
