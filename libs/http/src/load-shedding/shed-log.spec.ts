import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ShedLog } from './shed-log.js';

const inFlight = (value: number) => ({ signal: 'in_flight', value, bound: 50 });

function shedLog(intervalMs = 10_000) {
  const lines: string[] = [];
  return { lines, log: new ShedLog((line) => lines.push(line), intervalMs) };
}

describe('ShedLog', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('when the first request is refused, then one line says so at once, naming the figure past its bound', () => {
    jest.useFakeTimers({ now: 0 });
    const { lines, log } = shedLog();
    log.refused(inFlight(51));
    expect(lines).toEqual([
      'Shed 1 request with 503 SERVER.OVERLOADED: in_flight is 51, past its bound of 50 (refusals are logged together, one line per 10000 ms at most)',
    ]);
  });

  it('when refusals follow within the interval, then they make one line when it has passed, naming the last figure', async () => {
    jest.useFakeTimers({ now: 0 });
    const { lines, log } = shedLog();
    log.refused(inFlight(51));
    for (let i = 0; i < 999; i++) log.refused(inFlight(52 + (i % 3)));
    await jest.advanceTimersByTimeAsync(9_999);
    expect(lines).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Shed 999 requests with 503 SERVER\.OVERLOADED: in_flight is 54, past its bound of 50 /);
  });

  it('when nothing is refused for an interval, then the next refusal is logged at once again and nothing is written meanwhile', async () => {
    jest.useFakeTimers({ now: 0 });
    const { lines, log } = shedLog(1_000);
    log.refused(inFlight(51));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(lines).toHaveLength(1);
    log.refused({ signal: 'pending_orders', value: 2001.4, bound: 2000 });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Shed 1 request with 503 SERVER\.OVERLOADED: pending_orders is 2001, past its bound of 2000 /);
  });

  it('when it stops with refusals counted and not yet logged, then they are written, and nothing is written later', async () => {
    jest.useFakeTimers({ now: 0 });
    const { lines, log } = shedLog();
    log.refused(inFlight(51));
    log.refused(inFlight(51));
    log.refused(inFlight(51));
    log.stop();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Shed 2 requests /);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(lines).toHaveLength(2);
  });

  it('when it stops with nothing counted, then it writes nothing', () => {
    const { lines, log } = shedLog();
    log.stop();
    expect(lines).toEqual([]);
  });
});
