import { describe, expect, it } from '@jest/globals';
import { classifyStatus } from './loyalty.client.js';

describe('classifyStatus (what the dispatcher does with a loyalty answer)', () => {
  it.each([200, 201, 204])('when loyalty answers %i, then the command is done', (status) => {
    expect(classifyStatus(status)).toBe('accepted');
  });

  it.each([400, 401, 403, 404, 422])('when loyalty answers %i, then the command is parked: repeating it cannot help', (status) => {
    expect(classifyStatus(status)).toBe('rejected');
  });

  it.each([408, 409, 425, 429])('when loyalty answers %i ("not now"), then the command is retried, not parked', (status) => {
    expect(classifyStatus(status)).toBe('retry');
  });

  it.each([500, 502, 503, 504])('when loyalty answers %i, then the command is retried', (status) => {
    expect(classifyStatus(status)).toBe('retry');
  });
});
