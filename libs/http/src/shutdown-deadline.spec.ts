import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { armShutdownDeadline } from './shutdown-deadline.js';

describe('armShutdownDeadline', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('when SIGTERM arrives and the shutdown outlasts the timeout, then the process exits with code 1 at the deadline, not before', () => {
    const signals = new EventEmitter();
    const exit = jest.fn<(code: number) => void>();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    armShutdownDeadline(20_000, signals, exit);

    signals.emit('SIGTERM');
    jest.advanceTimersByTime(19_999);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('when no signal arrives, then nothing is scheduled', () => {
    const exit = jest.fn<(code: number) => void>();
    armShutdownDeadline(1000, new EventEmitter(), exit);
    jest.advanceTimersByTime(60_000);
    expect(exit).not.toHaveBeenCalled();
  });
});
