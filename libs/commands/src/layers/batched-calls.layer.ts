import type { Logger } from '@nestjs/common';
import type { SpeedUpLayer } from '@libs/config';
import type { CommandsOptions } from '../command.options.js';
import { answerOutcome, type CallOutcome, exchange, type PartnerCall, type PartnerConnections } from '../dispatch/command.client.js';
import type { ClaimedWork } from '../dispatch/command.dispatcher.js';
import type { DueCommand } from '../dispatch/command.statements.js';
import { endCallSpan, startBatchSpan } from '../ops/command.tracing.js';

/**
 * Layer `batched-calls`: two or more due commands of a path the partner also takes in batches go
 * in one request to its batch endpoint (`batching` of the module's options).
 *
 * - Changes: the core sends one `POST` per command under its Idempotency-Key; with this layer a
 *   claim's commands of a batched path go `maxCommands` per request, each recorded from its own
 *   result as if it had been sent alone. A lone command is still sent alone, at once.
 * - Costs: the partner needs a batch endpoint that makes each command idempotent by the command
 *   itself; a batch refused as a whole is sent again one command at a time.
 * - Figure: at 150 orders/s, 0.17-0.21 loyalty requests per order instead of 1.00, loyalty's CPU per
 *   order 0.68-0.71 ms instead of 1.72-1.97, the backlog drain 529-536/s instead of 287-311/s
 *   ([0302](../../../../docs/decisions/0302-batched-calls.md)).
 * - Off: `COMMANDS_BATCHED_CALLS_ENABLED=false`.
 */
export const batchedCallsLayer: SpeedUpLayer = {
  name: 'batched-calls',
  pattern: 'commands',
  switch: 'COMMANDS_BATCHED_CALLS_ENABLED',
  changes: 'Two or more due commands of a path with a batch endpoint go in one request, instead of a request per command.',
  costs: 'The partner needs a batch endpoint idempotent per command; a batch refused as a whole is resent one by one.',
  decision: 'docs/decisions/0302-batched-calls.md',
};

/**
 * A partner endpoint that takes many commands of one path in one request. The dispatcher sends
 * `{ "commands": [{ "id", "body" }] }` (each body as the single `POST` would carry it) and expects
 * `{ "results": [{ "id", "status", "body" }] }`: per command, the status and body the single call
 * would have answered. The partner must make each command idempotent by the command itself (a
 * batch's members change between attempts, so no Idempotency-Key can name a batch).
 */
export interface CommandBatching {
  /** Command path → the partner's batch endpoint for it, e.g. `{ '/accruals': '/accruals/batch' }`. */
  paths: Readonly<Record<string, string>>;
  /** Most commands the partner takes per batch request. */
  maxCommands: number;
}

/**
 * The claimed commands as calls: the commands of a path with a batch endpoint go together (in
 * chunks of `maxCommands`) when there are at least two of them; everything else, and a lone
 * command, is a call of its own. So a trickle is sent exactly as without batching (one `POST` per
 * command under its Idempotency-Key), and only a busy claim packs commands into a request.
 */
export function callsOf<T extends { path: string }>(commands: readonly T[], batching: CommandBatching | undefined): T[][] {
  if (!batching) return commands.map((command) => [command]);
  const byPath = new Map<string, T[]>();
  const calls: T[][] = [];
  for (const command of commands) {
    if (batching.paths[command.path] === undefined) calls.push([command]);
    else byPath.set(command.path, [...(byPath.get(command.path) ?? []), command]);
  }
  for (const group of byPath.values()) {
    for (let start = 0; start < group.length; start += batching.maxCommands) calls.push(group.slice(start, start + batching.maxCommands));
  }
  return calls;
}

interface BatchResult {
  id: unknown;
  status: unknown;
  body?: unknown;
}

/**
 * Each command's outcome from a batch's 2xx answer, classified as the single call's answer would
 * be. A command the answer leaves out, or answers in a shape we cannot read, is retried: only an
 * acknowledgement the partner actually gave marks a command done.
 */
export function batchOutcomes(ids: readonly string[], answerText: string): Map<string, CallOutcome> {
  const answered = new Map<string, BatchResult>();
  try {
    const results = (JSON.parse(answerText) as { results?: unknown }).results;
    if (Array.isArray(results))
      for (const result of results as BatchResult[]) if (typeof result?.id === 'string') answered.set(result.id, result);
  } catch {
    // Unreadable: every command is retried below.
  }
  return new Map(ids.map((id) => [id, outcomeOf(answered.get(id))]));
}

function outcomeOf(result: BatchResult | undefined): CallOutcome {
  if (!result || typeof result.status !== 'number') return { kind: 'retry', error: 'no result for this command in the batch answer' };
  return answerOutcome({ status: result.status, text: JSON.stringify(result.body ?? null) });
}

/** The answer to a batch: each command's outcome, or one outcome for all of them. */
type BatchCallOutcome = { kind: 'answered'; outcomes: Map<string, CallOutcome> } | Exclude<CallOutcome, { kind: 'accepted' }>;

/** One attempt at a batch: its endpoint and its commands. */
interface CommandBatchCall extends PartnerCall {
  commands: readonly { id: string; body: unknown }[];
}

/**
 * One `POST` of a batch. A 2xx is read command by command ({@link batchOutcomes}); any other
 * answer, or none, is the outcome of every command in it: a retry for all, or a refusal of the
 * batch as a whole (the endpoint missing, the batch malformed or too large), on which the
 * dispatcher sends the commands one by one so each gets its own answer.
 */
async function sendCommandBatch(call: CommandBatchCall): Promise<BatchCallOutcome> {
  const answer = await exchange(call, {}, JSON.stringify({ commands: call.commands }));
  if ('error' in answer) return { kind: 'retry', error: answer.error };
  const whole = answerOutcome(answer);
  if (whole.kind !== 'accepted') return whole;
  return {
    kind: 'answered',
    outcomes: batchOutcomes(
      call.commands.map((command) => command.id),
      answer.text,
    ),
  };
}

/**
 * Sends a claim's commands as {@link callsOf} groups them: a lone command through the core's own
 * call, a group in one request to the partner's batch endpoint, each command then recorded as if
 * it had been sent alone. A batch the partner refuses as a whole (an older partner without the
 * endpoint answers 404) is sent again one command at a time: a refusal of the batch is never taken
 * as the refusal of its commands.
 */
export class BatchedCalls {
  constructor(
    private readonly options: Pick<CommandsOptions, 'baseUrl' | 'requestTimeoutMs' | 'tokenSource'> & { batching: CommandBatching },
    private readonly connections: PartnerConnections,
    private readonly runCalls: <T>(items: readonly T[], work: (item: T) => Promise<void>) => Promise<void>,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
  ) {}

  sendAll(due: readonly DueCommand[], work: ClaimedWork): Promise<void> {
    return this.runCalls(callsOf(due, this.options.batching), (call) =>
      call.length === 1 ? work.send(call[0]) : this.sendBatch(call, work),
    );
  }

  private async sendBatch(commands: DueCommand[], work: ClaimedWork): Promise<void> {
    const path = this.options.batching.paths[commands[0].path];
    const span = startBatchSpan(path, commands);
    const answer = await sendCommandBatch({
      url: new URL(path, this.options.baseUrl),
      commands: commands.map(({ id, body }) => ({ id, body })),
      timeoutMs: this.options.requestTimeoutMs,
      traceparent: span.traceparent,
      tokenSource: this.options.tokenSource,
      connections: this.connections,
    });
    endCallSpan(span, answer);
    if (answer.kind === 'rejected') {
      this.logger.warn(`Batch of ${commands.length} to ${path} refused as a whole (${answer.error}); sending them one by one`);
      await this.runCalls(commands, (command) => work.send(command));
      return;
    }
    const outcomeOf = (command: DueCommand): CallOutcome => (answer.kind === 'answered' ? answer.outcomes.get(command.id)! : answer);
    const accepted = commands.filter((command) => outcomeOf(command).kind === 'accepted');
    // The accepted ones in one DONE statement; the others each as their answer says.
    await Promise.all([
      ...(accepted.length > 0 ? [this.markAccepted(accepted, work)] : []),
      ...commands.filter((command) => !accepted.includes(command)).map((command) => work.record(command, outcomeOf(command))),
    ]);
  }

  /** A failure to mark leaves the commands to their lease (logged, never thrown), as in the core. */
  private async markAccepted(commands: DueCommand[], work: ClaimedWork): Promise<void> {
    try {
      await work.markAccepted(commands);
    } catch (error) {
      const ids = commands.map((command) => command.id).join(', ');
      this.logger.error(`Command ${ids}: recording accepted failed: ${(error as Error).message}`);
    }
  }
}
