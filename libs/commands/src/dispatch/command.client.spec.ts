import { describe, expect, it } from '@jest/globals';
import { classifyStatus } from './command.client.js';

describe("classifyStatus (what the dispatcher does with a partner's answer)", () => {
  it.each([200, 201, 204])('when the partner answers %i, then the command is done', (status) => {
    expect(classifyStatus(status)).toBe('accepted');
  });

  it.each([400, 403, 404, 422])('when the partner answers %i, then the command is parked: repeating it cannot help', (status) => {
    expect(classifyStatus(status)).toBe('rejected');
  });

  it('when the partner answers 401 (our token expired or was revoked), then the command is retried with a new token', () => {
    expect(classifyStatus(401)).toBe('retry');
  });

  it.each([408, 409, 425, 429])('when the partner answers %i ("not now"), then the command is retried, not parked', (status) => {
    expect(classifyStatus(status)).toBe('retry');
  });

  it.each([500, 502, 503, 504])('when the partner answers %i, then the command is retried', (status) => {
    expect(classifyStatus(status)).toBe('retry');
  });
});
