import { describe, expect, it } from '@jest/globals';
import { dueUntil, sendSchedule } from './open-model-schedule.js';

describe('open-model schedule', () => {
  it('when 150/s are offered for 2 s, then 300 sends leave every 6.67 ms from 0, whatever the answers', () => {
    const schedule = sendSchedule(150, 2000);
    expect(schedule).toHaveLength(300);
    expect(schedule[0]).toBe(0);
    expect(schedule[1]).toBeCloseTo(6.667, 2);
    expect(schedule[299]).toBeCloseTo(1993.33, 1);
  });

  it('when the generator wakes late, then every request already due leaves on that tick', () => {
    const schedule = sendSchedule(100, 1000); // 0, 10, 20, ...
    expect(dueUntil(schedule, 0, 0)).toBe(1);
    expect(dueUntil(schedule, 1, 35)).toBe(4); // 10, 20, 30 were due
    expect(dueUntil(schedule, 4, 35)).toBe(4);
    expect(dueUntil(schedule, 0, 5000)).toBe(100);
  });

  it('when the rate is not positive, then it throws', () => {
    expect(() => sendSchedule(0, 1000)).toThrow(/positive/);
  });
});
