import { answerOutcome, type CallOutcome, exchange, type PartnerCall } from './command.client.js';

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
export type BatchCallOutcome = { kind: 'answered'; outcomes: Map<string, CallOutcome> } | Exclude<CallOutcome, { kind: 'accepted' }>;

/** One attempt at a batch: its endpoint and its commands. */
export interface CommandBatchCall extends PartnerCall {
  commands: readonly { id: string; body: unknown }[];
}

/**
 * One `POST` of a batch. A 2xx is read command by command ({@link batchOutcomes}); any other
 * answer, or none, is the outcome of every command in it: a retry for all, or a refusal of the
 * batch as a whole (the endpoint missing, the batch malformed or too large), on which the
 * dispatcher sends the commands one by one so each gets its own answer.
 */
export async function sendCommandBatch(call: CommandBatchCall): Promise<BatchCallOutcome> {
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
