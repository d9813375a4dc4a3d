import { describe, expect, it } from '@jest/globals';
import { roundOrder } from './interleaved-rounds.js';

describe('the order of interleaved rounds', () => {
  it('when rounds follow each other, then they alternate forward and backward, so each server is first as often as last', () => {
    const servers = ['orders', 'insert', 'outbox', 'dualWrite'];
    const rounds = [0, 1, 2, 3].map((round) => roundOrder(servers, round));
    expect(rounds).toEqual([servers, [...servers].reverse(), servers, [...servers].reverse()]);
    for (const server of servers) {
      const positions = rounds.map((order) => order.indexOf(server));
      expect(positions.reduce((sum, position) => sum + position, 0) / rounds.length).toBe((servers.length - 1) / 2);
    }
  });

  it('when given the servers, then it never changes them', () => {
    const servers = ['a', 'b'];
    roundOrder(servers, 1);
    expect(servers).toEqual(['a', 'b']);
  });
});
