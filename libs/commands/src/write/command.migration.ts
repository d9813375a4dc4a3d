import type { MigrationInterface, QueryRunner } from 'typeorm';
import { checkedCommandsTable } from '../command.options.js';

/** Where the commands table sorts among the libraries' migrations (outbox ...010, inbox ...020). */
const TIMESTAMP = 1764460800030;

/** The columns of a commands table read back whole and never filtered, joined or sorted on: see skipColumnStatistics. */
export function commandsUnfilteredColumns(table: string): Record<string, readonly string[]> {
  return { [checkedCommandsTable(table)]: ['body'] };
}

/**
 * The migration that creates one commands table, `table` (the name given to `CommandsModule`), with
 * the columns the library reads and writes (docs/commands.md, "The table"): list
 * `createCommandsTable('loyalty_commands')` among the app's migrations, as outbox and inbox users
 * list `CreateOutboxMessages...`. Its recorded name carries the table
 * (`CreateCommandsTable_loyalty_commands1764460800030`), so an app with two tables has two
 * migrations. An app may add columns of its own in later migrations of its own.
 */
export function createCommandsTable(table: string): new () => MigrationInterface {
  const checked = checkedCommandsTable(table);
  // An index name is never schema-qualified: it lives in its table's schema.
  const bare = checked.split('.').at(-1);
  const [dueIndex, parkedIndex, doneIndex] = [`${bare}_due_idx`, `${bare}_parked_idx`, `${bare}_done_idx`];
  return class CreateCommandsTable implements MigrationInterface {
    name = `CreateCommandsTable_${checked.replace('.', '_')}${TIMESTAMP}`;

    async up(queryRunner: QueryRunner): Promise<void> {
      // id is the business operation id (loyalty-accrual:<orderId>), sent as the Idempotency-Key.
      // next_attempt_at is both "due at" and the claim's lease: an expired lease is a due row again,
      // and claim_id (the fencing token) says which claim may still retry or park it.
      await queryRunner.query(`
        CREATE TABLE ${checked} (
          id text PRIMARY KEY,
          path text NOT NULL,
          body jsonb NOT NULL,
          status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DONE', 'PARKED')),
          attempts int NOT NULL DEFAULT 0,
          last_error text,
          next_attempt_at timestamptz NOT NULL DEFAULT now(),
          claim_id uuid,
          traceparent text,
          created_at timestamptz NOT NULL DEFAULT now(),
          completed_at timestamptz
        )`);
      // Three partial indexes, each holding only the rows one reader needs (a full-table index grew with history): due rows for
      // the dispatcher and the pending gauge; parked rows for the parked gauge, scraped every few
      // seconds (an index-only count of a handful of rows, not a scan of every command ever sent);
      // DONE rows by completed_at for the retention cleanup.
      await queryRunner.query(`CREATE INDEX ${dueIndex} ON ${checked} (next_attempt_at) WHERE status = 'PENDING'`);
      await queryRunner.query(`CREATE INDEX ${parkedIndex} ON ${checked} (id) WHERE status = 'PARKED'`);
      await queryRunner.query(`CREATE INDEX ${doneIndex} ON ${checked} (completed_at) WHERE status = 'DONE'`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE ${checked}`);
    }
  };
}
