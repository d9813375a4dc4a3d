import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryDelayMs } from '@libs/backoff';
import { failpoint } from '@libs/failpoints';
import { OneRunAtATime } from '@libs/scheduling';
import { COMMANDS_OPTIONS, type CommandsOptions } from '../command.options.js';
import { type DispatchLayers, dispatchLayers } from '../layers/command.layers.js';
import { DispatcherFailpoints } from '../ops/command.failpoints.js';
import { CommandMetrics } from '../ops/command.metrics.js';
import { endCallSpan, startCommandSpan } from '../ops/command.tracing.js';
import { type CallOutcome, PartnerConnections, sendCommand } from './command.client.js';
import { claimLeaseMs, commandStatements, type CommandStatements, type DueCommand } from './command.statements.js';

/** What the core does for the commands of one claim; the layers decide how many at once, and per request. */
export interface ClaimedWork {
  /** Steps 2-4 for one command: one call under its key, its outcome recorded. Never throws. */
  send(command: DueCommand): Promise<void>;
  /** Steps 3-4 for a command whose outcome came otherwise (in a batch's answer). Never throws. */
  record(command: DueCommand, outcome: CallOutcome): Promise<void>;
  /** Step 3 for commands the partner accepted together: DONE. Throws when the marking failed. */
  markAccepted(commands: readonly DueCommand[]): Promise<void>;
}

/**
 * Sends the commands `CommandWriter` stored until the partner acknowledges them. A cycle:
 *
 * 1. claims the due commands: a lease, so replicas split the work and a dead one's come back;
 * 2. calls the partner with each command's id as its `Idempotency-Key`;
 * 3. marks the command `DONE` on a 2xx, `PARKED` on a 4xx that will never succeed;
 * 4. makes it due again later, backing off, on a timeout, a network error or a 5xx;
 *
 * and claims again at once while claims come back full. Sending twice is safe by design (the key
 * makes the partner replay its stored answer), so the claim is a lease, not a lock held across the
 * HTTP call: a crash after the partner accepted and before we marked the row just means one more,
 * harmless, call once the lease ends (the failpoint below kills there in a test).
 *
 * This is the core. Its speed-ups are layers beside it (`../layers/`, each switched off with its
 * `COMMANDS_<NAME>_ENABLED=false`); with every one off, the same steps run one command at a time.
 */
@Injectable()
export class CommandDispatcher {
  private readonly logger = new Logger(CommandDispatcher.name);
  private readonly sql: CommandStatements;
  private readonly layers: DispatchLayers;
  /** Kept-alive connections to the partner, at most as many as calls in flight. */
  private readonly connections: PartnerConnections;
  /** One cycle at a time; a wake-up during a cycle gets one more after it; stop awaits the calls in flight. */
  private readonly cycles: OneRunAtATime;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CommandMetrics) private readonly metrics: CommandMetrics,
    @Inject(COMMANDS_OPTIONS) private readonly options: CommandsOptions,
  ) {
    this.sql = commandStatements(options.table);
    this.connections = new PartnerConnections(options.concurrency);
    this.layers = dispatchLayers(options, { markDone: (ids) => this.markDone(ids), connections: this.connections, logger: this.logger });
    this.cycles = new OneRunAtATime(
      () => this.dispatchDue(),
      (error) => this.logger.error(`Dispatching ${this.options.table} failed: ${error.message}`),
      { lingerMs: this.layers.lingerMs },
    );
  }

  /**
   * Starts a cycle, or asks for one more after the running one (cycles never overlap): a command
   * written while a cycle was claiming is sent right after it, not a poll interval later. What the
   * poll and every commit that wrote commands call.
   */
  trigger(): void {
    this.cycles.wake();
  }

  /** Resolves when no cycle is running; unlike {@link trigger}, never starts one. */
  idle(): Promise<void> {
    return this.cycles.idle();
  }

  /** Starts no new claim, and waits for the calls in flight to be answered and recorded. */
  async stop(): Promise<void> {
    await this.cycles.stop();
    this.connections.destroy();
  }

  private async dispatchDue(): Promise<void> {
    const { batchSize } = this.options;
    const leaseMs = claimLeaseMs({ ...this.options, concurrency: this.layers.concurrency });
    const work = (claimId: string): ClaimedWork => ({
      send: (command) => this.send(command, claimId),
      record: (command, outcome) => this.record(command, claimId, outcome),
      markAccepted: (commands) => this.markAccepted(commands),
    });
    while (!this.cycles.stopping) {
      // 1. Claim.
      const claimId = randomUUID();
      const due: DueCommand[] = await this.dataSource.query(this.sql.claimDue, [batchSize, claimId, leaseMs]);
      // 2.-4. for each claimed command: in the core one after the other, the layers send several at once.
      await this.layers.sendAll(due, work(claimId));
      // A full claim leaves more due: a backlog drains at the partner's speed, not a batch per poll.
      if (due.length < batchSize) return;
    }
  }

  /** 2. One call under the command's key, then 3.-4. */
  private async send(command: DueCommand, claimId: string): Promise<void> {
    const span = startCommandSpan(command);
    const outcome = await sendCommand({
      url: new URL(command.path, this.options.baseUrl),
      idempotencyKey: command.id,
      body: command.body,
      timeoutMs: this.options.requestTimeoutMs,
      traceparent: span.traceparent,
      tokenSource: this.options.tokenSource,
      connections: this.connections,
    });
    endCallSpan(span, outcome);
    await this.record(command, claimId, outcome);
  }

  /**
   * 3. `DONE` on a 2xx, `PARKED` on a 4xx that will never succeed; 4. due again after a backoff on
   * anything else. A failure to record is logged, never thrown: the claim's lease brings the
   * command back, and the partner answers the resend from its stored response.
   */
  private async record(command: DueCommand, claimId: string, outcome: CallOutcome): Promise<void> {
    try {
      if (outcome.kind === 'accepted') {
        await this.markAccepted([command]);
      } else if (outcome.kind === 'rejected') {
        if (await this.changed(this.sql.markParked, [command.id, claimId, outcome.error])) {
          this.metrics.parked.inc();
          this.logger.error(`Command ${command.id} parked: ${outcome.error}`);
        }
      } else {
        const delayMs = retryDelayMs(command.attempts + 1, this.options.retryBaseMs, this.options.retryMaxMs);
        if (await this.changed(this.sql.scheduleRetry, [command.id, claimId, outcome.error, delayMs])) this.metrics.retried.inc();
      }
    } catch (error) {
      this.logger.error(`Command ${command.id}: recording ${outcome.kind} failed: ${(error as Error).message}`);
    }
  }

  /** 3. `DONE` for commands the partner accepted (the crash window between its answer and our mark). */
  private async markAccepted(commands: readonly DueCommand[]): Promise<void> {
    for (const command of commands) await failpoint(DispatcherFailpoints.afterAcceptedBeforeMark, command.id);
    for (const marked of await this.layers.markDone(commands.map((command) => command.id))) {
      if (marked) this.metrics.done.inc();
      else this.metrics.staleOutcomes.inc();
    }
  }

  /** The `DONE` statement for `ids`: those it changed (a command already finished is skipped). */
  private async markDone(ids: readonly string[]): Promise<ReadonlySet<string>> {
    // TypeORM answers an UPDATE with [rows, rowCount].
    const [rows] = await this.dataSource.query<[{ id: string }[], number]>(this.sql.markDone, [ids]);
    return new Set(rows.map((row) => row.id));
  }

  /** Runs a conditional UPDATE; false (and counted) when the command was no longer ours to change. */
  private async changed(sql: string, params: unknown[]): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(sql, params);
    if (rows.length > 0) return true;
    this.metrics.staleOutcomes.inc();
    return false;
  }
}
