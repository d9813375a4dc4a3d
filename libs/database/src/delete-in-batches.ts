import type { DataSource } from 'typeorm';

export interface BatchedDelete {
  table: string;
  /** SQL condition on the table's rows, with `$1..$n` bound to `params`. */
  where: string;
  params: unknown[];
  /** Rows per DELETE statement: bounds lock time and the WAL written by one statement. */
  batchSize: number;
}

/**
 * Deletes every row matching `where`, `batchSize` rows per statement, until a statement deletes
 * fewer. Rows are picked by `ctid`, so it works for any primary key, composite ones included.
 * Returns the number of rows deleted. For retention jobs over tables that grow without bound.
 */
export async function deleteInBatches(dataSource: DataSource, spec: BatchedDelete): Promise<number> {
  const limit = `$${spec.params.length + 1}`;
  let total = 0;
  for (;;) {
    // TypeORM returns [rows, rowCount] for DELETE on Postgres.
    const [, deleted]: [unknown[], number] = await dataSource.query(
      `DELETE FROM ${spec.table} WHERE ctid IN (SELECT ctid FROM ${spec.table} WHERE ${spec.where} LIMIT ${limit})`,
      [...spec.params, spec.batchSize],
    );
    total += deleted;
    if (deleted < spec.batchSize) return total;
  }
}
