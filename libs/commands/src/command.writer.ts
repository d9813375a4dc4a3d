import { Inject, Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { currentTraceparent } from '@app/telemetry';
import { COMMANDS_TABLE } from './commands.options.js';
import type { OutgoingCommand } from './outgoing-command.js';

/**
 * Writes commands into the caller's business transaction, so a command exists exactly when the
 * business change that calls for it committed. Like `OutboxWriter.add`, it refuses to run
 * outside a transaction (`TransactionContext.requireManager` throws): a command written on its
 * own connection could survive a rolled-back business change, or be lost with a committed one.
 */
@Injectable()
export class CommandWriter {
  private readonly insert: string;

  constructor(
    @Inject(TransactionContext) private readonly tx: TransactionContext,
    @Inject(COMMANDS_TABLE) table: string,
  ) {
    this.insert = `INSERT INTO ${table} (id, path, body, traceparent) VALUES ($1, $2, $3, $4)`;
  }

  /**
   * Stores `command` as `PENDING`, due now, with the current span's context so the call joins
   * this trace. A second command with the same id fails the transaction (primary key): one
   * operation id names one operation.
   */
  async enqueue(command: OutgoingCommand): Promise<void> {
    const manager = this.tx.requireManager('Enqueuing a command');
    await manager.query(this.insert, [command.id, command.path, JSON.stringify(command.body), currentTraceparent() ?? null]);
  }
}
