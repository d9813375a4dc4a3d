import { describe, expect, it } from '@jest/globals';
import { inboxRetentionProblems } from './topic-retention.js';

describe('inboxRetentionProblems', () => {
  const week = 7 * 24 * 3_600_000;

  it('when the inbox keeps ids at least as long as every topic keeps messages, then there is no problem', () => {
    expect(inboxRetentionProblems(2 * week, new Map([['orders.order.v1', week]]))).toEqual([]);
    expect(inboxRetentionProblems(week, new Map([['orders.order.v1', week]]))).toEqual([]);
  });

  it('when a topic keeps messages longer than the inbox keeps ids, then the problem names both values and the topic', () => {
    const [problem] = inboxRetentionProblems(60_000, new Map([['orders.order.v1', week]]));
    expect(problem).toContain('INBOX_RETENTION_MS=60000');
    expect(problem).toContain(`retention.ms=${week}`);
    expect(problem).toContain('orders.order.v1');
  });

  it('when a topic keeps messages for ever (retention.ms=-1), then any inbox retention is a problem', () => {
    expect(inboxRetentionProblems(3650 * 24 * 3_600_000, new Map([['t', Number.POSITIVE_INFINITY]]))).toEqual([
      expect.stringContaining('retention.ms=-1, kept for ever'),
    ]);
  });
});
