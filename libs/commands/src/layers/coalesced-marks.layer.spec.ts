import { describe, expect, it } from '@jest/globals';
import { CoalescedMarks } from './coalesced-marks.layer.js';

/** A markAll whose statements the test answers one at a time. */
function controlledStatements() {
  const statements: { ids: string[]; answer: (marked: string[]) => void; fail: (error: Error) => void }[] = [];
  const markAll = (ids: string[]) =>
    new Promise<ReadonlySet<string>>((resolve, reject) => {
      statements.push({ ids, answer: (marked) => resolve(new Set(marked)), fail: reject });
    });
  return { statements, markAll };
}

describe('CoalescedMarks (DONE marks of the loyalty dispatcher)', () => {
  it('when marks arrive while a statement runs, then they go out together in the next one', async () => {
    const { statements, markAll } = controlledStatements();
    const marks = new CoalescedMarks(markAll);
    const first = marks.markEach(['a']);
    const later = [marks.markEach(['b']), marks.markEach(['c', 'd'])];
    expect(statements.map((one) => one.ids)).toEqual([['a']]);
    statements[0].answer(['a']);
    expect(await first).toEqual([true]);
    expect(statements.map((one) => one.ids)).toEqual([['a'], ['b', 'c', 'd']]);
    statements[1].answer(['b', 'd']);
    expect(await Promise.all(later)).toEqual([[true], [false, true]]);
  });

  it('when ids are marked together (a batch answer), then they go out in one statement, not one and then the rest', async () => {
    const { statements, markAll } = controlledStatements();
    const marks = new CoalescedMarks(markAll);
    const batch = marks.markEach(['a', 'b', 'c']);
    expect(statements.map((one) => one.ids)).toEqual([['a', 'b', 'c']]);
    statements[0].answer(['a', 'c']);
    expect(await batch).toEqual([true, false, true]);
  });

  it('when a statement fails, then its marks reject and the next marks still go out', async () => {
    const { statements, markAll } = controlledStatements();
    const marks = new CoalescedMarks(markAll);
    const failed = marks.markEach(['a']);
    statements[0].fail(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    const next = marks.markEach(['b']);
    statements[1].answer(['b']);
    expect(await next).toEqual([true]);
  });
});
