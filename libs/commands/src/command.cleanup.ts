import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type BatchedDelete, RetentionJob } from '@app/database';
import { CommandMetrics } from './command.metrics.js';
import { COMMANDS_OPTIONS, type CommandsOptions } from './commands.options.js';

/**
 * Deletes acknowledged (`DONE`) commands older than `retentionMs`, a bounded batch per statement,
 * so the table holds the work in hand and a window of history instead of every command ever sent
 * (issue 16). Pending and parked commands are never touched. The app's migration gives the table
 * a partial index on `completed_at` of `DONE` rows (docs/commands.md), so each batch finds its
 * rows without reading the others.
 */
@Injectable()
export class CommandCleanup extends RetentionJob {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(CommandMetrics) private readonly metrics: CommandMetrics,
    @Inject(COMMANDS_OPTIONS) private readonly options: CommandsOptions,
  ) {
    super(dataSource);
  }

  protected expired(): BatchedDelete {
    return {
      table: this.options.table,
      where: "status = 'DONE' AND completed_at < now() - make_interval(secs => $1::float / 1000)",
      params: [this.options.retentionMs],
      batchSize: this.options.cleanupBatchSize,
    };
  }

  protected onDeleted(count: number): void {
    this.metrics.deleted.inc(count);
  }
}
