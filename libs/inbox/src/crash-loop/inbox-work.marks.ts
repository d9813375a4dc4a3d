import type { DataSource } from 'typeorm';
import { OncePerTurn } from './once-per-turn.js';

/** Whose work a mark is: one consumer's partition of one topic. */
export interface MarkKey {
  consumer: string;
  topic: string;
  partition: number;
}

/** Offsets of one partition, both ends included. */
export interface OffsetRange {
  first: string;
  last: string;
}

/** A mark left by work that did not end cleanly: its range, the deaths counted on it, and whether a process had it in work. */
export interface LeftMark extends OffsetRange {
  deaths: number;
  inWork: boolean;
}

/**
 * Each statement commits with `synchronous_commit = off` (set for its own implicit transaction): it
 * is visible at once and survives the death of the consumer process, which is all a mark is for;
 * only a crash of Postgres itself within a fraction of a second could lose one (then a death is
 * counted one later). It saves the WAL flush, most of a mark's cost (decision 0402).
 */
const RELAXED = "(SELECT set_config('synchronous_commit', 'off', true)) AS relaxed";

/**
 * Marks a batch's range in work, unless the row holds what a dead process left: in work, or a
 * range with deaths counted. Such a row is returned (read in the same snapshot) and left as it is.
 * Each statement is its own short transaction (autocommit), before the handlers' transaction.
 */
const MARK = `
  WITH wanted AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::bigint[])
      AS wanted(consumer, topic, partition, first_offset, last_offset), ${RELAXED}
  ), left_behind AS (
    SELECT wanted.consumer, wanted.topic, wanted.partition, marks.first_offset, marks.last_offset, marks.deaths, marks.in_work
    FROM wanted JOIN inbox_work_marks marks USING (consumer, topic, partition)
    WHERE marks.in_work OR marks.deaths > 0
  ), marked AS (
    INSERT INTO inbox_work_marks AS marks (consumer, topic, partition, first_offset, last_offset, in_work, deaths)
    SELECT consumer, topic, partition, first_offset, last_offset, true, 0 FROM wanted
    ON CONFLICT (consumer, topic, partition) DO UPDATE
      SET first_offset = excluded.first_offset, last_offset = excluded.last_offset, in_work = true, deaths = 0, marked_at = now()
      WHERE NOT marks.in_work AND marks.deaths = 0
  )
  SELECT consumer, topic, partition, first_offset, last_offset, deaths, in_work FROM left_behind`;

/** Clears a range this process had in work and finished, alive; only if the row still holds that range. */
const CLEAR = `
  UPDATE inbox_work_marks AS marks SET first_offset = NULL, last_offset = NULL, in_work = false, deaths = 0
  FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::bigint[]) AS done(consumer, topic, partition, first_offset, last_offset), ${RELAXED}
  WHERE marks.consumer = done.consumer AND marks.topic = done.topic AND marks.partition = done.partition
    AND marks.first_offset = done.first_offset AND marks.last_offset = done.last_offset AND marks.deaths = 0`;

/** Rare (after a death only): the ordinary commit. */
const SET = `
  INSERT INTO inbox_work_marks (consumer, topic, partition, first_offset, last_offset, in_work, deaths)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (consumer, topic, partition) DO UPDATE
    SET first_offset = excluded.first_offset, last_offset = excluded.last_offset, in_work = excluded.in_work,
        deaths = excluded.deaths, marked_at = now()`;

type Marked = { key: MarkKey; range: OffsetRange };

function columns(items: readonly Marked[]): unknown[] {
  return [
    items.map(({ key }) => key.consumer),
    items.map(({ key }) => key.topic),
    items.map(({ key }) => key.partition),
    items.map(({ range }) => range.first),
    items.map(({ range }) => range.last),
  ];
}

const keyOf = (key: MarkKey) => `${key.consumer}\u0000${key.topic}\u0000${key.partition}`;

/**
 * The table `inbox_work_marks`: what a consumer process has in work. The marks and clears of the
 * partitions of one fetch go in one statement each ({@link OncePerTurn}).
 */
export class InboxWorkMarks {
  private readonly marks: OncePerTurn<Marked, LeftMark | undefined>;
  private readonly clears: OncePerTurn<Marked, undefined>;

  constructor(private readonly dataSource: DataSource) {
    this.marks = new OncePerTurn(async (items) => {
      const rows: {
        consumer: string;
        topic: string;
        partition: number;
        first_offset: string | null;
        last_offset: string | null;
        deaths: number;
        in_work: boolean;
      }[] = await this.dataSource.query(MARK, columns(items));
      const left = new Map(rows.map((row) => [keyOf(row), row]));
      return items.map(({ key }) => {
        const row = left.get(keyOf(key));
        if (!row || row.first_offset === null || row.last_offset === null) return undefined;
        return { first: row.first_offset, last: row.last_offset, deaths: row.deaths, inWork: row.in_work };
      });
    });
    this.clears = new OncePerTurn(async (items) => {
      await this.dataSource.query(CLEAR, columns(items));
      return items.map(() => undefined);
    });
  }

  /** Marks `range` in work, or returns what a dead process left on this partition (then nothing is marked). */
  mark(key: MarkKey, range: OffsetRange): Promise<LeftMark | undefined> {
    return this.marks.call({ key, range });
  }

  /** The range was worked through by a live process: nothing of it is suspect any more. */
  async clear(key: MarkKey, range: OffsetRange): Promise<void> {
    await this.clears.call({ key, range });
  }

  /** Sets the row as given: a range (often one record) with the deaths counted on it, in work or not. */
  async set(key: MarkKey, range: OffsetRange | undefined, inWork: boolean, deaths: number): Promise<void> {
    await this.dataSource.query(SET, [key.consumer, key.topic, key.partition, range?.first ?? null, range?.last ?? null, inWork, deaths]);
  }
}
