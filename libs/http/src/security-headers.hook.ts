import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import helmet from 'helmet';

/** The paths of Swagger UI (`setupApiDocs`): the one HTML page this project serves. Query strings do not count. */
const isDocsPage = (url: string) => /^\/docs(\/|\?|$)/.test(url);

// Helmet's set (nosniff, no-referrer, HSTS, COOP/CORP, no X-Powered-By, ...), with framing denied
// outright: no page of ours is meant to be shown inside another site's frame (clickjacking).
const common = { frameguard: { action: 'deny' as const }, referrerPolicy: { policy: 'no-referrer' as const } };

// An API answer is data, never a document: nothing in it may load, run or be framed.
const api = helmet({
  ...common,
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
});

// Swagger UI loads its scripts and styles from /docs itself, has inline <style> blocks and data:
// icons, and fetches /docs-json: all of that from 'self', and no inline or remote script.
const docs = helmet({
  ...common,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
});

const helmetFor = (url: string) => (isDocsPage(url) ? docs : api);

/**
 * Security headers on every answer, errors and 404s included (an error page is a page a browser renders too): `X-Content-Type-Options:
 * nosniff`, `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`, `Referrer-Policy:
 * no-referrer`, `Strict-Transport-Security` (honoured once served over TLS), no `X-Powered-By`;
 * a CSP of `default-src 'none'` on API answers and a `'self'`-only CSP on the Swagger UI page.
 * Set by helmet, the maintained middleware for it, as a Fastify `onRequest` hook: helmet only
 * sets headers on the Node response (`reply.raw`), which Fastify merges into every answer it
 * sends, errors and 404s included. Register first, before anything may answer.
 */
export function securityHeaders() {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void =>
    helmetFor(request.url)(request.raw, reply.raw, (error) => done(error as Error | undefined));
}

/** What {@link securityHeaders} does, on Node's own request and response: for answers given before Fastify routes a request. */
export function setSecurityHeaders(request: IncomingMessage, response: ServerResponse, done: (error?: Error) => void): void {
  helmetFor(request.url ?? '')(request, response, (error) => done(error as Error | undefined));
}
