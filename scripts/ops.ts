// `npm run ops -- <command>`: what an operator needs when the dashboards say something is wrong.
// Runs against DATABASE_URL and KAFKA_BROKERS (local defaults as for npm start; `.env` is read
// when present). Exit codes: 0 done, 1 failed or nothing matched, 2 bad command line.
import { loadDotEnv } from '@app/config';
import { databaseUrl } from '@app/database';
import { createKafka } from '@app/kafka';
import { localEnvironment } from '@tools/local-stack';
import pg from 'pg';
import {
  asDeadLetterTopic,
  type DeadLetter,
  deadLetterTopics,
  matchesReference,
  position,
  readDeadLetters,
  replay,
} from './ops/dead-letters.js';
import { integerOption, type OpsArgs, parseOpsArgs, stringOption, UsageError } from './ops/ops-args.js';
import { parkedLoyaltyCommands, pendingOutboxRows, retryParkedLoyaltyCommands } from './ops/ops-tables.js';

const USAGE = `Usage: npm run ops -- <command>

  dlq list [--topic <topic>]                      dead letters with their reasons (all *.dlq topics by default)
  dlq show <message-id | topic:partition:offset>  one dead letter: headers, error, key and value
                                                  (topic:partition:offset of the dead letter or of the original record)
  dlq replay <topic> --all                        publish every dead letter of <topic> back to its original topic
  dlq replay <topic> --offset N [--partition P]   publish one (P may be left out when the DLQ has one partition)
                                                  replays keep key, value and headers, so the message id too
  outbox pending [--service orders|inventory] [--limit N]
                                                  unpublished outbox rows, oldest first, with their last error
  loyalty parked                                  loyalty commands parked after a 4xx
  loyalty retry <id...> | --all                   put parked commands back in the dispatcher's queue

Options: --database <name> overrides the service's database (default: orders or inventory).
Environment: DATABASE_URL (server, without database; default postgres://postgres@127.0.0.1:5432),
             KAFKA_BROKERS (default 127.0.0.1:9092).`;

loadDotEnv();
const env = localEnvironment();
const out = (line = '') => process.stdout.write(`${line}\n`);

function kafka() {
  return createKafka({ brokers: env.KAFKA_BROKERS!.split(','), clientId: 'ops' });
}

async function withDatabase<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(env.DATABASE_URL!, database) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function describeLetter(letter: DeadLetter): string {
  const { original } = letter;
  return [
    position(letter),
    `  ${letter.messageType ?? '(no type)'} ${letter.messageId ?? '(no message-id)'}`,
    `  reason: ${letter.reason ?? '?'} after ${letter.attempts ?? '?'} attempt(s) in ${letter.consumer ?? '?'} at ${letter.deadLetteredAt ?? '?'}`,
    `  from:   ${original.topic}:${original.partition}:${original.offset}`,
    `  error:  ${(letter.error ?? '').split('\n')[0]}`,
  ].join('\n');
}

function printable(value: Buffer | null): string {
  if (value === null) return '(null)';
  const text = value.toString('utf8');
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

async function dlq(args: OpsArgs): Promise<number> {
  const [, action, target] = args.words;
  if (action === 'list') {
    const topics = await deadLetterTopics(kafka(), stringOption(args, 'topic'));
    const letters = await readDeadLetters(kafka(), topics);
    for (const letter of letters) out(describeLetter(letter));
    out(`${letters.length} dead letter(s) in ${topics.length} topic(s)${topics.length ? `: ${topics.join(', ')}` : ''}`);
    return 0;
  }
  if (action === 'show') {
    if (!target) throw new UsageError('dlq show needs a message id or topic:partition:offset');
    const letters = (await readDeadLetters(kafka(), await deadLetterTopics(kafka(), stringOption(args, 'topic')))).filter((letter) =>
      matchesReference(letter, target),
    );
    for (const letter of letters) {
      out(describeLetter(letter));
      out(`  error (full):\n${(letter.error ?? '').replace(/^/gm, '    ')}`);
      out(`  key:    ${letter.record.key?.toString() ?? '(null)'}`);
      out('  headers:');
      for (const [name, value] of Object.entries(letter.record.headers)) out(`    ${name}: ${[value].flat().map(String).join(', ')}`);
      out(`  value:\n${printable(letter.record.value).replace(/^/gm, '    ')}`);
    }
    if (letters.length === 0) {
      out(`no dead letter matches ${target}`);
      return 1;
    }
    return 0;
  }
  if (action === 'replay') {
    if (!target) throw new UsageError('dlq replay needs a topic');
    const all = args.options.get('all') === true;
    const offset = integerOption(args, 'offset');
    if (all === (offset !== undefined)) throw new UsageError('dlq replay needs exactly one of --all and --offset N');
    const topic = asDeadLetterTopic(target);
    let letters = await readDeadLetters(kafka(), [topic]);
    if (offset !== undefined) {
      const partitions = [...new Set(letters.map((letter) => letter.record.partition))];
      const partition = integerOption(args, 'partition') ?? (partitions.length <= 1 ? partitions[0] : undefined);
      if (partition === undefined)
        throw new UsageError(`${topic} has dead letters in partitions ${partitions.join(', ')}: add --partition P`);
      letters = letters.filter((letter) => letter.record.partition === partition && letter.record.offset === offset);
    }
    if (letters.length === 0) {
      out(`nothing to replay in ${topic}`);
      return 1;
    }
    for (const { letter, partition, offset: at } of await replay(kafka(), letters)) {
      out(`replayed ${position(letter)} (${letter.messageType} ${letter.messageId}) to ${letter.original.topic}:${partition}:${at}`);
    }
    out(`${letters.length} dead letter(s) replayed; the dead-letter topic keeps them (Kafka topics are append-only)`);
    return 0;
  }
  throw new UsageError(`unknown dlq command ${action ?? '(none)'}`);
}

async function outbox(args: OpsArgs): Promise<number> {
  if (args.words[1] !== 'pending') throw new UsageError(`unknown outbox command ${args.words[1] ?? '(none)'}`);
  const service = stringOption(args, 'service');
  if (service !== undefined && service !== 'orders' && service !== 'inventory')
    throw new UsageError('--service must be orders or inventory');
  const database = stringOption(args, 'database');
  if (database && !service) throw new UsageError('--database needs --service');
  const limit = integerOption(args, 'limit') ?? 100;
  for (const name of service ? [service] : ['orders', 'inventory']) {
    const rows = await withDatabase(database ?? name, (client) => pendingOutboxRows(client, limit));
    out(`${name}: ${rows.length} pending outbox row(s)${rows.length === limit ? ` (first ${limit}; --limit to see more)` : ''}`);
    for (const row of rows) {
      out(`  ${row.id} ${row.message_type} ${row.aggregate_id} -> ${row.topic}`);
      out(`    age ${Math.round(row.age_seconds)} s, ${row.attempts} attempt(s), next ${row.next_attempt_at.toISOString()}`);
      if (row.last_error) out(`    last_error: ${row.last_error}`);
    }
  }
  return 0;
}

async function loyalty(args: OpsArgs): Promise<number> {
  const database = stringOption(args, 'database') ?? 'inventory';
  const [, action, ...ids] = args.words;
  if (action === 'parked') {
    const rows = await withDatabase(database, parkedLoyaltyCommands);
    out(`${rows.length} parked loyalty command(s)`);
    for (const row of rows) {
      out(`  ${row.id} customer ${row.customer_id}, order ${row.order_id}, ${row.points} point(s), ${row.attempts} attempt(s)`);
      out(`    last_error: ${row.last_error ?? '(none)'}`);
    }
    return 0;
  }
  if (action === 'retry') {
    const all = args.options.get('all') === true;
    if (all === ids.length > 0) throw new UsageError('loyalty retry needs command ids or --all, not both');
    const moved = await withDatabase(database, (client) => retryParkedLoyaltyCommands(client, all ? 'all' : ids));
    for (const id of moved) out(`queued ${id}`);
    const missing = all ? [] : ids.filter((id) => !moved.includes(id));
    for (const id of missing) out(`not parked: ${id}`);
    out(`${moved.length} command(s) queued for the dispatcher`);
    return missing.length > 0 || moved.length === 0 ? 1 : 0;
  }
  throw new UsageError(`unknown loyalty command ${action ?? '(none)'}`);
}

async function main(argv: string[]): Promise<number> {
  const args = parseOpsArgs(argv);
  if (args.options.has('help') || args.words.length === 0) {
    out(USAGE);
    return args.words.length === 0 && !args.options.has('help') ? 2 : 0;
  }
  switch (args.words[0]) {
    case 'dlq':
      return dlq(args);
    case 'outbox':
      return outbox(args);
    case 'loyalty':
      return loyalty(args);
    default:
      throw new UsageError(`unknown command ${args.words[0]}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`ops: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`ops: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
