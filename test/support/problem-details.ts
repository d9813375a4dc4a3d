import { expect } from '@jest/globals';
import { type JsonResponse } from '@tools/local-stack';

/**
 * Asserts the RFC 9457 shape every error answer of the apps has: `application/problem+json`, the
 * five members with their types, `status` equal to the HTTP status, `type` derived from `code`,
 * and, when given, the exact code.
 */
export function expectProblem(response: JsonResponse, status: number, code?: string): void {
  expect({ status: response.status, contentType: response.headers.get('content-type') }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/problem\+json(;|$)/),
  });
  expect(response.body).toEqual(
    expect.objectContaining({
      type: `urn:problem-type:${response.body?.code}`,
      title: expect.any(String),
      status,
      detail: expect.any(String),
      code: code ?? expect.stringMatching(/^[A-Z]+\.[A-Z_]+$/),
    }),
  );
}
