import { describe, expect, it } from '@jest/globals';
import { decodeAccrualCursor, encodeAccrualCursor } from './accrual-cursor.js';

const ID = '0b0f6a8e-6b1f-4c49-9f5e-2f3b3f1f8a11';
const cursorOf = (createdAt: unknown, id: unknown = ID) => Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');

describe('accrual cursor', () => {
  it('when a position is encoded, then it decodes to the same position, microseconds and offset kept', () => {
    for (const createdAt of ['2024-02-29 23:59:59.123456+00', '2026-12-02 04:38:53+05:30', '1999-01-01 00:00:00-11']) {
      expect(decodeAccrualCursor(encodeAccrualCursor({ createdAt, id: ID }))).toEqual({ createdAt, id: ID });
    }
  });

  it('when the date is shaped right but impossible, then the cursor is refused (Postgres would fail the query: a 500)', () => {
    for (const createdAt of [
      '2023-02-29 10:00:00+00',
      '2024-04-31 10:00:00+00',
      '2024-13-01 10:00:00+00',
      '2024-00-10 10:00:00+00',
      '2024-01-00 10:00:00+00',
      '2024-01-01 24:00:00+00',
      '2024-01-01 10:60:00+00',
      '2024-01-01 10:00:60+00',
      '2024-01-01 10:00:00+16',
      '0000-01-01 00:00:00+00',
    ]) {
      expect({ createdAt, decoded: decodeAccrualCursor(cursorOf(createdAt)) }).toEqual({ createdAt, decoded: undefined });
    }
  });

  it('when the cursor is not one of ours, then it is refused', () => {
    for (const cursor of [
      '',
      'not-base64-json',
      cursorOf('2024-01-01 10:00:00+00', 'not-a-uuid'),
      cursorOf(42),
      Buffer.from('{}').toString('base64url'),
    ]) {
      expect(decodeAccrualCursor(cursor)).toBeUndefined();
    }
  });
});
