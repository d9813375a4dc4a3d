import { describe, expect, it } from '@jest/globals';
import { CodedError } from './coded.error.js';

const Codes = { NOT_FOUND: 'EXAMPLE.NOT_FOUND', CLOSED: 'EXAMPLE.CLOSED' } as const;
type ExampleCode = (typeof Codes)[keyof typeof Codes];

class ExampleClosedError extends CodedError<ExampleCode> {
  constructor(readonly id: string) {
    super(Codes.CLOSED, `example ${id} is closed`);
  }
}

describe('CodedError', () => {
  it('when thrown, then the code is a field of its own and the message is left as written', () => {
    const error = new CodedError<ExampleCode>(Codes.NOT_FOUND, 'example 42 does not exist');
    expect(error).toBeInstanceOf(Error);
    expect({ code: error.code, message: error.message }).toEqual({ code: 'EXAMPLE.NOT_FOUND', message: 'example 42 does not exist' });
  });

  it('when printed (a log line, a stack, a dead-letter header), then it starts with the code, not a class name', () => {
    const error = new ExampleClosedError('7');
    expect(`${error.name}: ${error.message}`).toBe('EXAMPLE.CLOSED: example 7 is closed');
    expect(String(error)).toBe('EXAMPLE.CLOSED: example 7 is closed');
    expect(error.stack?.split('\n')[0]).toBe('EXAMPLE.CLOSED: example 7 is closed');
    expect(error).toBeInstanceOf(ExampleClosedError);
  });

  it('when it wraps a cause, then the cause is kept', () => {
    const cause = new Error('connection reset');
    expect(new CodedError(Codes.NOT_FOUND, 'lookup failed', { cause }).cause).toBe(cause);
  });
});
