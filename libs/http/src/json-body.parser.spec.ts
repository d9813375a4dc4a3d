import { describe, expect, it } from '@jest/globals';
import { parseJsonBody } from './json-body.parser.js';
import { ProblemException } from './problem.exception.js';

const LIMIT = 65_536;
const parse = (text: string) => parseJsonBody(Buffer.from(text), LIMIT);
const refusal = (text: string) => {
  try {
    parse(text);
    return 'accepted';
  } catch (error) {
    return error instanceof ProblemException ? { code: error.code, fields: error.fieldProblems.map((problem) => problem.field) } : 'other';
  }
};

describe('parseJsonBody', () => {
  it('when a body holds __proto__ or constructor at any depth, then 400 REQUEST.FORBIDDEN_KEY names its path, never a silent drop', () => {
    expect(refusal('{"__proto__": {"admin": true}}')).toEqual({ code: 'REQUEST.FORBIDDEN_KEY', fields: ['__proto__'] });
    expect(refusal('{"items": [{"sku": "A"}, {"constructor": {"prototype": {}}}]}')).toEqual({
      code: 'REQUEST.FORBIDDEN_KEY',
      fields: ['items[1].constructor'],
    });
    // JSON.parse decodes escapes: the key is still __proto__.
    expect(refusal('{"\\u005f_proto__": 1}')).toEqual({ code: 'REQUEST.FORBIDDEN_KEY', fields: ['__proto__'] });
  });

  it('when the words appear only in values, then the body is accepted as it is', () => {
    expect(parse('{"note": "__proto__ and constructor", "list": ["constructor"]}')).toEqual({
      note: '__proto__ and constructor',
      list: ['constructor'],
    });
  });
});
