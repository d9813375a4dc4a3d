import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { securityHeaders } from './security-headers.hook.js';

/** The headers the hook leaves on a real Node response to a request for `url` (one that had X-Powered-By set). */
function answerTo(url: string): Record<string, unknown> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  response.setHeader('X-Powered-By', 'something');
  let finished = false;
  securityHeaders()({ url } as FastifyRequest, { raw: response } as FastifyReply, (error) => {
    if (error) throw error;
    finished = true;
  });
  expect(finished).toBe(true);
  return response.getHeaders();
}

describe('security headers (helmet)', () => {
  it("when an API path is answered, then it carries helmet's whole set with a CSP that lets nothing load, and no X-Powered-By", () => {
    expect(answerTo('/orders/0f1e2d3c')).toEqual({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
  });

  it("when the Swagger UI page is answered, then only its CSP differs: 'self' for its own scripts and styles, never framed", () => {
    const api = answerTo('/orders');
    const docs = answerTo('/docs?x=1');
    expect(docs['content-security-policy']).toBe(
      "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
    );
    expect({ ...docs, 'content-security-policy': undefined }).toEqual({ ...api, 'content-security-policy': undefined });
    // Only /docs and what is under it is the page: a path that merely starts with the word is API.
    expect(answerTo('/docsomething')['content-security-policy']).toBe(api['content-security-policy']);
  });
});
