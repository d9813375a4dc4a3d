import { describe, expect, it } from '@jest/globals';
import { DAY_MS, dayOf, dayOfPartition, dayPartitionName, firstUuidAt } from './day-partitions.js';
import { timeOrderedUuid } from './time-ordered-uuid.js';

/** Postgres compares uuids byte by byte: for lower-case hex strings of one length, that is string order. */
const uuidOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('day partitions of a table keyed by UUIDv7', () => {
  const day = Date.UTC(2026, 11, 8);

  it('when ids are minted during a day, then each sorts within the bounds of that day (first millisecond included, the next day excluded)', () => {
    for (const ms of [day, day + 1, day + DAY_MS / 2, day + DAY_MS - 1]) {
      const id = timeOrderedUuid(ms);
      expect(uuidOrder(firstUuidAt(day), id)).toBeLessThanOrEqual(0);
      expect(uuidOrder(id, firstUuidAt(day + DAY_MS))).toBe(-1);
    }
    expect(uuidOrder(timeOrderedUuid(day - 1), firstUuidAt(day))).toBe(-1);
  });

  it('when a day is named, then the name carries the UTC date and reads back as that day; other names are no day', () => {
    expect(firstUuidAt(day)).toBe(
      `${day.toString(16).padStart(12, '0').slice(0, 8)}-${day.toString(16).padStart(12, '0').slice(8)}-0000-0000-000000000000`,
    );
    expect(dayPartitionName('outbox_messages', day)).toBe('outbox_messages_p20261208');
    expect(dayOfPartition('outbox_messages', 'outbox_messages_p20261208')).toBe(day);
    expect(dayOfPartition('outbox_messages', 'outbox_messages_default')).toBeUndefined();
    expect(dayOfPartition('outbox_messages', 'inbox_messages_p20261208')).toBeUndefined();
    expect(dayOf(day + DAY_MS - 1)).toBe(day);
  });
});
