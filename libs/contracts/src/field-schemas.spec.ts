import { describe, expect, it } from '@jest/globals';
import { jsonSchemaOf, schemaProblems } from '@libs/envelope';
import { codePointLength, integer, list, record, text, timestamp, tolerantRecord } from './field-schemas.js';

describe('text', () => {
  const customer = text({ maxLength: 64 });

  it('when a string holds characters outside the BMP, then its length is counted in code points, not UTF-16 units', () => {
    const emoji = '😀'.repeat(64);
    expect(emoji.length).toBe(128);
    expect(codePointLength(emoji)).toBe(64);
    expect(schemaProblems(customer, emoji, 'customerId')).toEqual([]);
    expect(schemaProblems(customer, `${emoji}😀`, 'customerId')).toEqual([
      'customerId must be at most 64 characters (Unicode code points)',
    ]);
  });

  it('when a string is at the limit in ASCII, then it passes; one more character fails', () => {
    expect(schemaProblems(customer, 'c'.repeat(64), 'customerId')).toEqual([]);
    expect(schemaProblems(customer, 'c'.repeat(65), 'customerId')).toHaveLength(1);
  });

  it('when a string holds a lone surrogate or U+0000 (which Postgres jsonb/text refuse), then it fails', () => {
    expect(schemaProblems(customer, 'a\ud800b', 'customerId')).toEqual(['customerId must be well-formed Unicode text without U+0000']);
    expect(schemaProblems(customer, 'a\udc00', 'customerId')).toHaveLength(1);
    expect(schemaProblems(customer, 'a\u0000b', 'customerId')).toHaveLength(1);
  });

  it('when the value is empty, missing or not a string, then it must be a non-empty string', () => {
    for (const value of ['', undefined, 5])
      expect(schemaProblems(customer, value, 'customerId')).toEqual(['customerId must be a non-empty string']);
  });

  it('when a pattern fails and a description is given, then the problem uses it', () => {
    expect(schemaProblems(text({ pattern: /^A$/, description: 'must be A' }), 'B', 'x')).toEqual(['x must be A']);
  });

  it('when a pattern has a flag JSON Schema cannot carry, then declaring it fails', () => {
    expect(() => text({ pattern: /^a$/i })).toThrow(/flags/);
  });

  it('when published, then its JSON Schema states what the check enforces', () => {
    expect(jsonSchemaOf(text({ maxLength: 64, pattern: /^[A-Z]+$/ }))).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Z]+$',
    });
  });
});

describe('integer, timestamp, list and record', () => {
  it('when a value is out of range or not an integer, then the problem states the range', () => {
    expect(schemaProblems(integer({ min: 1, max: 5 }), 0, 'n')).toEqual(['n must be an integer from 1 to 5']);
    expect(schemaProblems(integer({ min: 1, max: 5 }), 1.5, 'n')).toEqual(['n must be an integer from 1 to 5']);
    expect(schemaProblems(integer({ min: 1, max: 5 }), '1', 'n')).toEqual(['n must be an integer from 1 to 5']);
  });

  it('when a timestamp does not parse, then it is refused; any Date.parse-able text is accepted', () => {
    expect(schemaProblems(timestamp(), 'yesterday', 't')).toEqual(['t must be an ISO-8601 timestamp']);
    expect(schemaProblems(timestamp(), new Date().toISOString(), 't')).toEqual([]);
  });

  it('when an object has an unknown field or a field in error, then each problem names its place', () => {
    const thing = record({ n: integer({ max: 5 }), tags: list(text(), { max: 2 }) });
    expect(schemaProblems(thing, { n: 7, tags: ['a', ''], extra: true }, 'payload')).toEqual([
      'payload.n must be an integer from 0 to 5',
      'payload.tags[1] must be a non-empty string',
      'payload has fields that are not allowed: extra',
    ]);
    expect(schemaProblems(thing, { n: 1, tags: ['a', 'b', 'c'] }, 'payload')).toEqual(['payload.tags must have 0 to 2 entries']);
    expect(schemaProblems(thing, [], 'payload')).toEqual(['payload must be an object']);
  });

  it('when a message payload has a field its reader does not know, then a tolerant record accepts it and checks the rest', () => {
    const payload = tolerantRecord({ n: integer({ max: 5 }) });
    expect(schemaProblems(payload, { n: 1, addedLater: 'x' }, 'payload')).toEqual([]);
    expect(schemaProblems(payload, { n: 7, addedLater: 'x' }, 'payload')).toEqual(['payload.n must be an integer from 0 to 5']);
    expect(schemaProblems(payload, { addedLater: 'x' }, 'payload')).toEqual(['payload.n must be an integer from 0 to 5']);
    expect(jsonSchemaOf(payload)).not.toHaveProperty('additionalProperties');
  });
});
