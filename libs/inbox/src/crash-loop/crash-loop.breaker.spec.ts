import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { InboxBatch, InboxOutcome } from '../core/inbox.batch.js';
import type { DeadLetter, DeadLetterPublisher } from '../dead-letter/dead-letter.publisher.js';
import type { RawInboxMessage } from '../envelope/inbox.envelope.js';
import type { InboxRoute } from '../routing/inbox.route.js';
import { InboxMetrics } from '../telemetry/inbox.metrics.js';
import { CRASHED_CONSUMER, CrashLoopBreaker } from './crash-loop.breaker.js';
import type { InboxWorkMarks, LeftMark, MarkKey, OffsetRange } from './inbox-work.marks.js';

/**
 * The breaker's decisions, with `inbox_work_marks` kept in memory by the same rules as its SQL
 * (inbox-work.marks.ts; the statements themselves run in the contract suite and the e2e test). A
 * process death is a `next` that never returns: the breaker's instance is dropped, and the next
 * "process" is a new instance over the same marks.
 */
class MarksInMemory implements Pick<InboxWorkMarks, 'mark' | 'clear' | 'set'> {
  row: (OffsetRange & { inWork: boolean; deaths: number }) | undefined;

  async mark(_key: MarkKey, range: OffsetRange): Promise<LeftMark | undefined> {
    if (this.row && (this.row.inWork || this.row.deaths > 0)) return { ...this.row };
    this.row = { ...range, inWork: true, deaths: 0 };
    return undefined;
  }

  async clear(_key: MarkKey, range: OffsetRange): Promise<void> {
    if (this.row?.first === range.first && this.row.last === range.last && this.row.deaths === 0) this.row = undefined;
  }

  async set(_key: MarkKey, range: OffsetRange | undefined, inWork: boolean, deaths: number): Promise<void> {
    this.row = range ? { ...range, inWork, deaths } : undefined;
  }
}

const route = { consumer: 'test.breaker' } as InboxRoute;
const records: RawInboxMessage[] = [0, 1, 2].map((offset) => ({
  topic: 't',
  partition: 0,
  offset: String(offset),
  key: null,
  value: {},
  headers: {},
}));
const batchOf = (of: readonly RawInboxMessage[], resolved: string[]): InboxBatch => ({
  topic: 't',
  partition: 0,
  records: of,
  resolve: (record) => void resolved.push(record.offset),
  heartbeat: async () => undefined,
  isActive: () => true,
  retryLater: () => undefined,
});

/** A "process": a breaker over `marks`, whose inbox dies (never returns) on `killer`, or fails it (`deferred`). */
function consumerProcess(marks: MarksInMemory, letters: DeadLetter[], behaviour: { killer?: string; failing?: string } = {}) {
  const metrics = new InboxMetrics(new Registry());
  const deadLetters = { publish: async (letter: DeadLetter) => void letters.push(letter) } as unknown as DeadLetterPublisher;
  const breaker = new CrashLoopBreaker(marks as unknown as InboxWorkMarks, deadLetters, metrics, 3);
  const handled: string[][] = [];
  const resolved: string[] = [];
  let died = false;
  const next = async (batch: InboxBatch): Promise<InboxOutcome[]> => {
    handled.push(batch.records.map((record) => record.offset));
    if (batch.records.some((record) => record.offset === behaviour.killer)) {
      died = true;
      return new Promise<never>(() => undefined);
    }
    return batch.records.map((record) => (record.offset === behaviour.failing ? 'deferred' : 'processed'));
  };
  const deliver = async (of: readonly RawInboxMessage[] = records) => {
    const delivered = breaker.deliver(batchOf(of, resolved), route, next);
    // A death leaves the delivery pending for good; let the "process" run until it has nothing left to do.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    return died ? 'died' : delivered;
  };
  return { deliver, handled, resolved, deaths: () => metrics.consumerDeaths.get().then((metric) => metric.values[0]?.value ?? 0) };
}

describe('crash-loop breaker', () => {
  it('when a batch is handled alive, then its mark is cleared and no death is counted', async () => {
    const marks = new MarksInMemory();
    const alive = consumerProcess(marks, []);
    expect(await alive.deliver()).toEqual(['processed', 'processed', 'processed']);
    expect(alive.handled).toEqual([['0', '1', '2']]);
    expect(marks.row).toBeUndefined();
    expect(await alive.deaths()).toBe(0);
  });

  it('when the process dies three times on one record of a batch, then the range is narrowed, that record is dead-lettered unhandled and the others are handled', async () => {
    const marks = new MarksInMemory();
    const letters: DeadLetter[] = [];
    expect(await consumerProcess(marks, letters, { killer: '1' }).deliver()).toBe('died');
    const second = consumerProcess(marks, letters, { killer: '1' });
    expect(await second.deliver()).toBe('died');
    expect(second.handled).toEqual([['0'], ['1']]);
    expect(await second.deaths()).toBe(1);
    expect(await consumerProcess(marks, letters, { killer: '1' }).deliver(records.slice(1))).toBe('died');
    expect(marks.row).toEqual({ first: '1', last: '1', inWork: true, deaths: 2 });

    const fourth = consumerProcess(marks, letters, { killer: '1' });
    expect(await fourth.deliver(records.slice(1))).toEqual(['dead-lettered', 'processed']);
    expect(fourth.handled).toEqual([['2']]);
    expect(fourth.resolved).toEqual(['1']);
    expect(letters.map((letter) => [letter.message.offset, letter.reason, letter.attempts])).toEqual([['1', CRASHED_CONSUMER, 3]]);
    expect(marks.row).toBeUndefined();
  });

  it('when a suspect record fails its handler (alive), then it stays suspect without a new death, and completing it clears the count', async () => {
    const marks = new MarksInMemory();
    expect(await consumerProcess(marks, [], { killer: '1' }).deliver()).toBe('died');
    const alive = consumerProcess(marks, [], { failing: '0' });
    expect(await alive.deliver()).toEqual(['deferred']);
    expect(marks.row).toEqual({ first: '0', last: '2', inWork: false, deaths: 1 });
    const healed = consumerProcess(marks, []);
    expect(await healed.deliver()).toEqual(['processed', 'processed', 'processed']);
    expect(healed.handled).toEqual([['0'], ['1'], ['2']]);
    expect(await healed.deaths()).toBe(0);
    expect(marks.row).toBeUndefined();
  });

  it('when the inbox throws (the database went away) and the same process delivers again, then no death is counted', async () => {
    const marks = new MarksInMemory();
    const metrics = new InboxMetrics(new Registry());
    const breaker = new CrashLoopBreaker(marks as unknown as InboxWorkMarks, {} as DeadLetterPublisher, metrics, 3);
    const failing = async (): Promise<InboxOutcome[]> => {
      throw new Error('connection refused');
    };
    await expect(breaker.deliver(batchOf(records, []), route, failing)).rejects.toThrow('connection refused');
    const outcomes = await breaker.deliver(batchOf(records, []), route, async (batch) => batch.records.map(() => 'processed'));
    expect(outcomes).toEqual(['processed', 'processed', 'processed']);
    expect((await metrics.consumerDeaths.get()).values).toEqual([]);
    expect(marks.row).toBeUndefined();
  });
});
