import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_JSON, type ProblemDetails, problemType } from './problem-details.js';
import { RequestErrorCodes } from './request-error-codes.js';

/** What Node's parser reports before there is a request to answer, as status, code and detail. */
function describe(error: NodeJS.ErrnoException): { status: number; code: string; detail: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: RequestErrorCodes.HEADERS_TOO_LARGE, detail: 'The request headers are larger than this server accepts' };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: RequestErrorCodes.TIMEOUT, detail: 'The request was not sent whole within HTTP_REQUEST_TIMEOUT_MS' };
  }
  return { status: 400, code: RequestErrorCodes.REFUSED, detail: 'The request is not valid HTTP' };
}

/**
 * Fastify's `clientErrorHandler`: the answer to a request Node's parser refused before Fastify saw
 * it (headers too large: 431; not sent in time: 408; not HTTP: 400). Fastify's own writes a JSON
 * of its own shape; this one writes problem+json with a code of ours, as every other error, with
 * the API's security headers, and closes the connection (the parser cannot go on after it).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, detail } = describe(error);
  const body: ProblemDetails = { type: problemType(code), title: STATUS_CODES[status] ?? 'Error', status, detail, code };
  const text = JSON.stringify(body);
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  // end, not write and destroy: a destroyed socket drops what is still queued, the answer included.
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
      `Content-Type: ${PROBLEM_JSON}`,
      `Content-Length: ${Buffer.byteLength(text)}`,
      'Connection: close',
      'X-Content-Type-Options: nosniff',
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
      'Cache-Control: no-store',
      '',
      text,
    ].join('\r\n'),
  );
  // A client that never closes its side would hold the socket: a second is enough to read the answer.
  setTimeout(() => socket.destroy(), 1000).unref();
}
