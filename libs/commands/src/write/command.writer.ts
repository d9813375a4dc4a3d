import { Inject, Injectable, Optional } from '@nestjs/common';
import { TransactionContext } from '@libs/database';
import { currentTraceparent } from '@libs/telemetry';
import { COMMANDS_TABLE, COMMANDS_WRITTEN } from '../command.options.js';

/** A command as the caller writes it: what to send, and the key that makes sending it twice harmless. */
export interface OutgoingCommand {
  /**
   * The business operation id (e.g. `loyalty-accrual:<orderId>`): the primary key, and the
   * `Idempotency-Key` of every attempt. The same operation must always yield the same id.
   */
  id: string;
  /** Path of the `POST`, resolved against the module's `baseUrl`, e.g. `/accruals`. */
  path: string;
  /** The JSON body, stored as `jsonb` and sent unchanged on every attempt. */
  body: unknown;
}

/**
 * Writes commands into the caller's business transaction, so a command exists exactly when the
 * business change that calls for it committed. Like `OutboxWriter.add`, it refuses to run
 * outside a transaction (`TransactionContext.requireManager` throws): a command written on its
 * own connection could survive a rolled-back business change, or be lost with a committed one.
 *
 * Once that transaction commits, it wakes the dispatcher of this process (`written`, given by
 * `CommandsModule`): the command goes out in milliseconds, not at the next poll. Only after the
 * commit: a dispatcher woken earlier would claim before the row is visible and find nothing.
 */
@Injectable()
export class CommandWriter {
  private readonly insert: string;

  /**
   * @param written called once per committed transaction that wrote commands; none in a process
   *   that writes commands and leaves them to another process's dispatcher (its poll finds them)
   */
  constructor(
    @Inject(TransactionContext) private readonly tx: TransactionContext,
    @Inject(COMMANDS_TABLE) table: string,
    @Optional() @Inject(COMMANDS_WRITTEN) private readonly written: () => void = () => undefined,
  ) {
    this.insert = `INSERT INTO ${table} (id, path, body, traceparent)
      SELECT c->>'id', c->>'path', c->'body', c->>'traceparent'
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS command(c, n)
      ORDER BY n`;
  }

  /**
   * Stores `command` as `PENDING`, due now, with the current span's context so the call joins
   * this trace. A second command with the same id fails the transaction (primary key) at its next
   * statement or its commit: one operation id names one operation.
   */
  async enqueue(command: OutgoingCommand): Promise<void> {
    await this.enqueueMany([command]);
  }

  /**
   * {@link enqueue} for several commands in ONE statement: for handlers that work on a batch. A
   * command's `traceparent`, when given, replaces the current span's (each command of a batch
   * continues the trace of the message that called for it).
   */
  async enqueueMany(commands: readonly (OutgoingCommand & { traceparent?: string })[]): Promise<void> {
    this.tx.requireManager('Enqueuing a command');
    if (commands.length === 0) return;
    const current = currentTraceparent() ?? null;
    const rows = commands.map((command) => ({
      id: command.id,
      path: command.path,
      body: command.body,
      traceparent: command.traceparent ?? current,
    }));
    // In the round trip of the transaction's next statement or of its COMMIT; a taken id fails that one.
    await this.tx.deferWrite(this.insert, [JSON.stringify(rows)], 'Enqueuing a command');
    this.tx.afterCommit(this.written);
  }
}
