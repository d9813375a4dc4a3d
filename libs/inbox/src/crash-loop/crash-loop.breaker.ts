import { Logger } from '@nestjs/common';
import type { DeliverBatch, InboxBatch, InboxOutcome } from '../core/inbox.batch.js';
import type { DeadLetterPublisher } from '../dead-letter/dead-letter.publisher.js';
import type { RawInboxMessage } from '../envelope/inbox.envelope.js';
import type { InboxRoute } from '../routing/inbox.route.js';
import type { InboxMetrics } from '../telemetry/inbox.metrics.js';
import type { InboxWorkMarks, LeftMark, MarkKey, OffsetRange } from './inbox-work.marks.js';

/** The reason a record that killed its consumer goes to the dead-letter topic with. */
export const CRASHED_CONSUMER = 'CRASHED_CONSUMER';

const rangeOf = (records: readonly RawInboxMessage[]): OffsetRange => ({ first: records[0].offset, last: records.at(-1)!.offset });
const at = (record: RawInboxMessage): OffsetRange => ({ first: record.offset, last: record.offset });
const idOf = (key: MarkKey) => `${key.consumer}\u0000${key.topic}\u0000${key.partition}`;

/**
 * The crash-loop breaker, around the whole inbox (the core and its layers). Whatever kills the
 * process (out of memory, a native crash, a bug), no record can kill it forever:
 *
 * 1. Before a partition's batch is worked, its offset range is marked in work
 *    (`inbox_work_marks`, one row per partition, one statement for the partitions of one fetch,
 *    committed before the handlers' transaction). Once the batch is done, alive, the mark is cleared.
 * 2. A mark found in work at the next delivery means the process that had it died: one death on
 *    that range. Its records are then worked one at a time, each marked alone and carrying the
 *    range's deaths, so the next death lands on the record that kills.
 * 3. A record alone that was in work at `INBOX_CRASH_LOOP_DEATHS` deaths in a row is
 *    dead-lettered as `CRASHED_CONSUMER`, never handled again, and its offset goes.
 *
 * A record that completes resets the count. What it costs per batch: docs/decisions/0402-crash-loop-breaker.md.
 */
export class CrashLoopBreaker {
  private readonly logger = new Logger(CrashLoopBreaker.name);

  constructor(
    private readonly marks: InboxWorkMarks,
    private readonly deadLetters: DeadLetterPublisher,
    private readonly metrics: InboxMetrics,
    private readonly deathsBeforeDeadLetter: number,
  ) {}

  /**
   * Ranges this process marked in work and could not clear (the inbox threw: the database went
   * away): found again at the next delivery, they are this live process's, not a dead one's.
   */
  private readonly uncleared = new Map<string, OffsetRange>();

  /** Hands `batch` to `next` (the inbox) behind its work mark; the outcome of each record handled, in order. */
  async deliver(batch: InboxBatch, route: InboxRoute, next: DeliverBatch): Promise<InboxOutcome[]> {
    if (batch.records.length === 0) return next(batch, route);
    const key: MarkKey = { consumer: route.consumer, topic: batch.topic, partition: batch.partition };
    const range = rangeOf(batch.records);
    let left = await this.marks.mark(key, range);
    if (left?.inWork && this.isUncleared(key, left)) left = left.deaths > 0 ? { ...left, inWork: false } : undefined;
    if (left) return this.afterDeath(batch, route, next, key, left);
    if (this.uncleared.has(idOf(key))) await this.marks.set(key, range, true, 0);
    this.uncleared.set(idOf(key), range);
    const outcomes = await next(batch, route);
    await this.marks.clear(key, range);
    this.uncleared.delete(idOf(key));
    return outcomes;
  }

  private isUncleared(key: MarkKey, left: OffsetRange): boolean {
    const range = this.uncleared.get(idOf(key));
    return range !== undefined && range.first === left.first && range.last === left.last;
  }

  /** Step 2 and 3: a dead process left `left` behind on this partition. */
  private async afterDeath(
    batch: InboxBatch,
    route: InboxRoute,
    next: DeliverBatch,
    key: MarkKey,
    left: LeftMark,
  ): Promise<InboxOutcome[]> {
    const deaths = left.deaths + (left.inWork ? 1 : 0);
    if (left.inWork) {
      this.metrics.consumerDeaths.inc({ consumer: route.consumer });
      this.logger.error(
        `${route.consumer}: a process died with ${batch.topic}[${batch.partition}]@${left.first}..${left.last} in work (${deaths} death(s) in a row); worked one record at a time`,
      );
    }
    // Saved before anything runs: a death while redelivered records before the range run is not theirs.
    await this.marks.set(key, left, false, deaths);
    const offset = (record: RawInboxMessage) => BigInt(record.offset);
    const before = batch.records.filter((record) => offset(record) < BigInt(left.first));
    const suspects = batch.records.filter((record) => offset(record) >= BigInt(left.first) && offset(record) <= BigInt(left.last));
    const after = batch.records.filter((record) => offset(record) > BigInt(left.last));
    const outcomes: InboxOutcome[] = [];
    if (before.length > 0) {
      outcomes.push(...(await next({ ...batch, records: before }, route)));
      if (outcomes.at(-1) === 'deferred' || !batch.isActive()) return outcomes;
    }
    // A range of several records: its death may be any of theirs, so no record of it is dead-lettered before it died alone.
    const carried = left.first === left.last ? deaths : Math.min(deaths, this.deathsBeforeDeadLetter - 1);
    for (const record of suspects) {
      if (!batch.isActive()) return outcomes;
      const outcome = await this.alone(batch, route, next, key, record, carried, left.last);
      if (outcome === undefined) return outcomes;
      outcomes.push(outcome);
      if (outcome === 'deferred') return outcomes;
    }
    const lastHere = BigInt(batch.records.at(-1)!.offset);
    if (lastHere < BigInt(left.last)) {
      // The batch ended inside the range: the rest of it stays suspect for the next delivery.
      const first = lastHere < BigInt(left.first) ? left.first : String(lastHere + 1n);
      await this.marks.set(key, { first, last: left.last }, false, carried);
      return outcomes;
    }
    // The range is worked through, alive: what follows is an ordinary batch again.
    await this.marks.set(key, undefined, false, 0);
    if (after.length > 0 && batch.isActive()) outcomes.push(...(await this.deliver({ ...batch, records: after }, route, next)));
    return outcomes;
  }

  /** One suspect record: dead-lettered when its deaths reached the bound, otherwise handled alone, marked with them. */
  private async alone(
    batch: InboxBatch,
    route: InboxRoute,
    next: DeliverBatch,
    key: MarkKey,
    record: RawInboxMessage,
    deaths: number,
    rangeLast: string,
  ): Promise<InboxOutcome | undefined> {
    if (deaths >= this.deathsBeforeDeadLetter) {
      await this.deadLetter(route, record, deaths);
      batch.resolve(record);
      return 'dead-lettered';
    }
    await this.marks.set(key, at(record), true, deaths);
    const [outcome] = await next({ ...batch, records: [record] }, route);
    // Waiting for another attempt after a handler failure, or not taken (alive): it and the rest of the range stay suspect, not in work.
    if (outcome === 'deferred' || outcome === undefined)
      await this.marks.set(key, { first: record.offset, last: rangeLast }, false, deaths);
    return outcome;
  }

  private async deadLetter(route: InboxRoute, record: RawInboxMessage, deaths: number): Promise<void> {
    const { consumer } = route;
    const error = `the consumer process died ${deaths} times in a row with this record in work`;
    await this.deadLetters.publish({ message: record, consumer, reason: CRASHED_CONSUMER, error, attempts: deaths });
    this.metrics.deadLettered.inc({ consumer, reason: CRASHED_CONSUMER });
    this.logger.error(`${consumer}: dead-lettered ${record.topic}[${record.partition}]@${record.offset} (${CRASHED_CONSUMER}: ${error})`);
  }
}
