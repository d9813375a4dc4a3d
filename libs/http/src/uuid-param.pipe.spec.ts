import { describe, expect, it } from '@jest/globals';
import { ProblemException } from './problem.exception.js';
import { uuidParam } from './uuid-param.pipe.js';

const pipe = uuidParam('id');

function refusal(value: unknown): ProblemException {
  try {
    pipe.transform(value, { type: 'param', data: 'id' });
  } catch (error) {
    return error as ProblemException;
  }
  throw new Error(`${String(value)} was accepted`);
}

describe('uuidParam', () => {
  it('accepts the ids the app mints (version 7) and those minted before (version 4), either case', () => {
    for (const id of [
      '019af6b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
      '019AF6B2-3C4D-7E5F-BA6B-7C8D9E0F1A2B',
      '3b241101-e2bb-4255-8caf-4136c566a962',
    ])
      expect(pipe.transform(id, { type: 'param', data: 'id' })).toBe(id);
  });

  it.each([
    ['another version', '3b241101-e2bb-1255-8caf-4136c566a962'],
    ['another variant', '019af6b2-3c4d-7e5f-ca6b-7c8d9e0f1a2b'],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
    ['no UUID at all', 'not-a-uuid'],
    ['a UUID with more around it', ' 019af6b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b'],
    ['not a string', 42],
  ])('refuses %s with a 400 naming the parameter', (_case, value) => {
    const error = refusal(value);
    expect(error).toBeInstanceOf(ProblemException);
    expect(error.getStatus()).toBe(400);
    expect(error.fieldProblems).toEqual([{ field: 'id', detail: 'id must be a UUID (version 7 or 4)' }]);
  });
});
