import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryDelayMs } from '@libs/backoff';
import { failpoint } from '@libs/failpoints';
import { OneRunAtATime } from '@libs/scheduling';
import { appTracer, contextFromTraceparent, endWithError, formatTraceparent, SpanKind, spanContextOf } from '@libs/telemetry';
import { callsOf, sendCommandBatch } from './command-batch.js';
import { type CallOutcome, PartnerConnections, sendCommand } from './command.client.js';
import { CoalescedMarks } from './coalesced-marks.js';
import { CommandMetrics } from './command.metrics.js';
import { COMMANDS_OPTIONS, type CommandsOptions } from './commands.options.js';
import { runConcurrently } from './run-concurrently.js';
import { DispatcherFailpoints } from './commands.failpoints.js';

/**
 * Claims up to $1 due commands for claim $2 until now + $3 ms, in one statement.
 *
 * Why a claim: every replica of the app runs a dispatcher, and without one each replica sent every
 * due command, once per replica. `FOR UPDATE SKIP LOCKED` lets concurrent claims pass each other
 * instead of queueing: a row another replica is claiming right now is skipped, and one it has
 * claimed is no longer due (its `next_attempt_at` moved past now, re-checked under the row lock).
 * The lease is `next_attempt_at` itself, so a replica that dies holding a claim only delays its
 * commands until the lease ends; no sweeper is needed. Raw SQL: one round trip per batch on the
 * hot path, which the ORM cannot express (UPDATE ... FROM a locked sub-select).
 */
const claimDue = (table: string) => `
  WITH due AS (
    SELECT id FROM ${table}
    WHERE status = 'PENDING' AND next_attempt_at <= now()
    ORDER BY next_attempt_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED),
  claimed AS (
    UPDATE ${table} c
    SET claim_id = $2, next_attempt_at = now() + make_interval(secs => $3::float / 1000)
    FROM due WHERE c.id = due.id
    RETURNING c.id, c.path, c.body, c.attempts, c.traceparent, c.next_attempt_at)
  SELECT id, path, body, attempts, traceparent FROM claimed ORDER BY next_attempt_at`;

/**
 * Every status change is conditional on the status the dispatcher read (`PENDING`): a late answer
 * can never turn `DONE` into `PARKED` or reschedule a finished command. Retrying and parking also
 * require our claim to still be the current one, so a replica whose lease expired cannot undo the
 * work of the replica that holds the command now. `DONE` does not: the partner acknowledged the key,
 * which is true whoever asked.
 *
 * `DONE` takes a set of ids ($1): the dispatcher's marks are coalesced (see CoalescedMarks), one
 * statement for the calls answered while the previous mark ran. The rows are locked in id order
 * first, so two replicas marking overlapping sets (after a lease expired) queue instead of
 * deadlocking.
 */
const markDone = (table: string) => `
  WITH target AS (
    SELECT id FROM ${table}
    WHERE id = ANY($1::text[]) AND status = 'PENDING'
    ORDER BY id
    FOR UPDATE)
  UPDATE ${table} c
  SET status = 'DONE', attempts = c.attempts + 1, last_error = NULL, completed_at = now(), claim_id = NULL
  FROM target WHERE c.id = target.id AND c.status = 'PENDING'
  RETURNING c.id`;
const markParked = (table: string) => `
  UPDATE ${table}
  SET status = 'PARKED', attempts = attempts + 1, last_error = $3, claim_id = NULL
  WHERE id = $1 AND status = 'PENDING' AND claim_id = $2
  RETURNING id`;
const scheduleRetry = (table: string) => `
  UPDATE ${table}
  SET attempts = attempts + 1, last_error = $3, claim_id = NULL, next_attempt_at = now() + make_interval(secs => $4::float / 1000)
  WHERE id = $1 AND status = 'PENDING' AND claim_id = $2
  RETURNING id`;

/** A claimed command, as the claim returns it. */
interface DueCommand {
  id: string;
  path: string;
  body: unknown;
  attempts: number;
  traceparent: string | null;
}

/**
 * How long a claim lasts: the slowest a claimed batch can take (its calls run in waves of
 * `concurrency`, each bounded by the request timeout), plus one more timeout of
 * margin for the database writes. Derived rather than configured, so it can never be set shorter
 * than the work it protects. Exported for its unit test.
 */
export function claimLeaseMs(options: Pick<CommandsOptions, 'batchSize' | 'concurrency' | 'requestTimeoutMs'>): number {
  const waves = Math.ceil(options.batchSize / options.concurrency);
  return (waves + 1) * options.requestTimeoutMs;
}

/**
 * Sends pending commands until the partner acknowledges them. Sending twice is safe by design
 * (the key makes the partner replay its stored answer), so the claim is a lease, not a lock held
 * across the HTTP call: a crash after the partner accepted and before we marked the row just means
 * one more, harmless, call once the lease ends.
 */
@Injectable()
export class CommandDispatcher {
  private readonly logger = new Logger(CommandDispatcher.name);
  private readonly sql: { claimDue: string; markDone: string; markParked: string; scheduleRetry: string };
  /** Kept-alive connections to the partner, as many as calls in flight. */
  private readonly connections: PartnerConnections;
  /** DONE marks, one statement for the calls answered while the previous one ran. */
  private readonly doneMarks = new CoalescedMarks(async (ids) => {
    // TypeORM answers an UPDATE with [rows, rowCount].
    const [rows] = await this.dataSource.query<[{ id: string }[], number]>(this.sql.markDone, [ids]);
    return new Set(rows.map((row) => row.id));
  });
  /**
   * One cycle at a time; a wake-up during a cycle gets one more after it; stop awaits the calls in
   * flight. Wake-ups linger (`lingerMs`): under load, one claim carries every command written meanwhile.
   */
  private readonly cycles: OneRunAtATime;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CommandMetrics) private readonly metrics: CommandMetrics,
    @Inject(COMMANDS_OPTIONS) private readonly options: CommandsOptions,
  ) {
    const { table } = options;
    this.sql = { claimDue: claimDue(table), markDone: markDone(table), markParked: markParked(table), scheduleRetry: scheduleRetry(table) };
    this.connections = new PartnerConnections(options.concurrency);
    this.cycles = new OneRunAtATime(
      () => this.dispatchDue(),
      (error) => this.logger.error(`Dispatching ${this.options.table} failed: ${error.message}`),
      { lingerMs: options.lingerMs },
    );
  }

  /**
   * Starts a cycle (after the linger, when the last one started less than `lingerMs` ago), or asks
   * for one more after the running one (cycles never overlap): a command written while a cycle was
   * claiming is sent right after it, not a poll interval later. What the poll and every commit that
   * wrote commands call.
   */
  trigger(): void {
    this.cycles.wake();
  }

  /** Resolves when no cycle is running; unlike {@link trigger}, never starts one. */
  idle(): Promise<void> {
    return this.cycles.idle();
  }

  /** Starts no new batch, and waits for the calls in flight to be answered and recorded. */
  async stop(): Promise<void> {
    await this.cycles.stop();
    this.connections.destroy();
  }

  /**
   * Claims and sends batch after batch while batches come back full: a backlog drains at the speed
   * of the partner, not at one batch per `pollIntervalMs` (which capped it near 100/s).
   */
  private async dispatchDue(): Promise<void> {
    const { batchSize } = this.options;
    while (!this.cycles.stopping) {
      const claimId = randomUUID();
      const due: DueCommand[] = await this.dataSource.query(this.sql.claimDue, [batchSize, claimId, claimLeaseMs(this.options)]);
      await runConcurrently(callsOf(due, this.options.batching), this.options.concurrency, (call) =>
        call.length === 1 ? this.dispatch(call[0], claimId) : this.dispatchBatch(call, claimId),
      );
      if (due.length < batchSize) return;
    }
  }

  private async dispatch(command: DueCommand, claimId: string): Promise<void> {
    // A CLIENT span continuing the trace of the transaction that wrote the command; its context
    // goes out as the request's `traceparent`, so the partner's server span is its child.
    const span = appTracer().startSpan(
      `POST ${command.path}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': 'POST', 'command.id': command.id, 'command.attempt': command.attempts + 1 },
      },
      contextFromTraceparent(command.traceparent ?? undefined),
    );
    const outcome = await sendCommand({
      url: new URL(command.path, this.options.baseUrl),
      idempotencyKey: command.id,
      body: command.body,
      timeoutMs: this.options.requestTimeoutMs,
      traceparent: formatTraceparent(span.spanContext()),
      tokenSource: this.options.tokenSource,
      connections: this.connections,
    });
    span.setAttribute('command.outcome', outcome.kind);
    if (outcome.kind === 'accepted') span.end();
    else endWithError(span, new Error(outcome.error));
    await this.recordSafely([command], outcome.kind, () => this.record(command, claimId, outcome));
  }

  /**
   * Commands of one path in one request to the partner's batch endpoint, then each recorded as if
   * it had been sent alone. A batch the partner refuses as a whole (an older partner without the
   * endpoint answers 404) is sent again one command at a time: a refusal of the batch is never
   * taken as the refusal of its commands.
   */
  private async dispatchBatch(commands: DueCommand[], claimId: string): Promise<void> {
    const path = this.options.batching!.paths[commands[0].path];
    // One CLIENT span for the request, in the trace of its first command and linked to the others'.
    const span = appTracer().startSpan(
      `POST ${path}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': 'POST', 'command.count': commands.length },
        links: commands.flatMap((command) => {
          const context = spanContextOf(command.traceparent ?? undefined);
          return context ? [{ context }] : [];
        }),
      },
      contextFromTraceparent(commands[0].traceparent ?? undefined),
    );
    const answer = await sendCommandBatch({
      url: new URL(path, this.options.baseUrl),
      commands: commands.map(({ id, body }) => ({ id, body })),
      timeoutMs: this.options.requestTimeoutMs,
      traceparent: formatTraceparent(span.spanContext()),
      tokenSource: this.options.tokenSource,
      connections: this.connections,
    });
    span.setAttribute('command.outcome', answer.kind);
    if (answer.kind === 'answered') span.end();
    else endWithError(span, new Error(answer.error));
    if (answer.kind === 'rejected') {
      this.logger.warn(`Batch of ${commands.length} to ${path} refused as a whole (${answer.error}); sending them one by one`);
      await runConcurrently(commands, this.options.concurrency, (command) => this.dispatch(command, claimId));
      return;
    }
    const outcomeOf = (command: DueCommand): CallOutcome => (answer.kind === 'answered' ? answer.outcomes.get(command.id)! : answer);
    const accepted = commands.filter((command) => outcomeOf(command).kind === 'accepted');
    // The accepted ones in one DONE statement; the others each as their answer says.
    await Promise.all([
      ...(accepted.length > 0 ? [this.recordSafely(accepted, 'accepted', () => this.recordAccepted(accepted))] : []),
      ...commands
        .filter((command) => !accepted.includes(command))
        .map((command) => this.recordSafely([command], outcomeOf(command).kind, () => this.record(command, claimId, outcomeOf(command)))),
    ]);
  }

  /** Runs a recording; a failure to record leaves the commands to their lease (logged, never thrown). */
  private async recordSafely(commands: DueCommand[], outcome: string, record: () => Promise<void>): Promise<void> {
    try {
      await record();
    } catch (error) {
      // The claim's lease brings the commands back; the partner answers the resend from its stored response.
      const ids = commands.map((command) => command.id).join(', ');
      this.logger.error(`Command ${ids}: recording ${outcome} failed: ${(error as Error).message}`);
    }
  }

  /** DONE for commands the partner accepted, in one statement when the load allows (see CoalescedMarks). */
  private async recordAccepted(commands: DueCommand[]): Promise<void> {
    for (const command of commands) await failpoint(DispatcherFailpoints.afterAcceptedBeforeMark, command.id);
    for (const marked of await this.doneMarks.markEach(commands.map((command) => command.id))) {
      if (marked) this.metrics.done.inc();
      else this.metrics.staleOutcomes.inc();
    }
  }

  private async record(command: DueCommand, claimId: string, outcome: CallOutcome): Promise<void> {
    if (outcome.kind === 'accepted') {
      await this.recordAccepted([command]);
    } else if (outcome.kind === 'rejected') {
      if (await this.changed(this.sql.markParked, [command.id, claimId, outcome.error])) {
        this.metrics.parked.inc();
        this.logger.error(`Command ${command.id} parked: ${outcome.error}`);
      }
    } else {
      const delayMs = retryDelayMs(command.attempts + 1, this.options.retryBaseMs, this.options.retryMaxMs);
      if (await this.changed(this.sql.scheduleRetry, [command.id, claimId, outcome.error, delayMs])) this.metrics.retried.inc();
    }
  }

  /** Runs a conditional UPDATE; false (and counted) when the command was no longer ours to change. */
  private async changed(sql: string, params: unknown[]): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, rowCount].
    const [rows] = await this.dataSource.query<[unknown[], number]>(sql, params);
    if (rows.length > 0) return true;
    this.metrics.staleOutcomes.inc();
    return false;
  }
}
