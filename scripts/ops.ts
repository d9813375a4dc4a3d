// `npm run ops -- <command>`: what an operator needs when the dashboards say something is wrong.
// Runs against DATABASE_URL and KAFKA_BROKERS (local defaults as for npm start; `.env` is read
// when present). Exit codes: 0 done, 1 failed or nothing matched, 2 bad command line.
import { loadConfig, loadDotEnv } from '@libs/config';
import { databaseUrl } from '@libs/database';
import { Headers, messageVerification, messageVerificationEnv } from '@libs/envelope';
import { createKafka, kafkaSecurityFromEnvironment } from '@libs/kafka';
import {
  kafkaSaslEnv,
  localDatabaseName,
  localEnvironment,
  localKafkaCredentials,
  localVerifyEnv,
  usesLocalKafkaCredentials,
} from '@tools/local-stack';
import pg from 'pg';
import {
  asDeadLetterTopic,
  type DeadLetter,
  deadLetterTopics,
  type LetterFilter,
  matchesFilter,
  matchesReference,
  position,
  readDeadLetters,
  replay,
  replayDestination,
  replayProblem,
} from './ops/dead-letters.js';
import { integerOption, type OpsArgs, parseOpsArgs, stringOption, UsageError } from './ops/ops-args.js';
import { parkedLoyaltyCommands, pendingOutboxRows, retryParkedLoyaltyCommands } from './ops/ops-tables.js';
import { printableBytes, sanitize } from './ops/printable.js';
import { headerText, readTopic, type StoredRecord } from './ops/read-topic.js';

const USAGE = `Usage: npm run ops -- <command>

  dlq list [--topic <topic>] [filters]            dead letters with their reasons (all *.dlq topics by default)
  dlq show <message-id | topic:partition:offset>  one dead letter: headers, error, key and value
                                                  (topic:partition:offset of the dead letter or of the original record)
  dlq replay <topic> --all [filters] [--dry-run]  publish the dead letters of <topic>.dlq back to <topic>
  dlq replay <topic> --offset N [--partition P]   publish one (P may be left out when the DLQ has one partition)
                                                  replays go to the topic the .dlq topic's name gives (never a
                                                  header), keep key, value and headers (so the message id), and
                                                  each is checked as its consumers would first: invalid ones are
                                                  reported, not sent (exit 1). --dry-run sends nothing.
  filters: --reason <REASON> --type <MessageType> --partition P --from-offset N --to-offset N (dead-letter offsets)
  outbox pending [--service orders|inventory] [--limit N]
                                                  unpublished outbox rows, oldest first, with their last error
  topic tail <topic> [--limit N]                  the last N records (default 10) of each partition of any topic:
                                                  key, message type and id, value (read as the admin user)
  loyalty parked                                  loyalty commands parked after a 4xx
  loyalty retry <id...> | --all                   put parked commands back in the dispatcher's queue

Options: --database <name> overrides the service's database (default: ORDERS_DATABASE_NAME or INVENTORY_DATABASE_NAME, else orders or inventory).
Environment: DATABASE_URL (server, without database; default postgres://postgres@127.0.0.1:5432),
             KAFKA_BROKERS (default 127.0.0.1:9092), KAFKA_SASL_* and KAFKA_TLS_* as for the apps,
             MESSAGE_VERIFY_KEYS (required by dlq replay: every record must be signed by its type's producer).
             Against the local brokers, ops authenticates as the \`ops\` principal and uses the local keys.
Output is sanitised: control characters are escaped, binary values shown as length and hex.
Exit codes: 0 done, 1 failed or nothing matched (a filter, reference or id selecting nothing), 2 bad command line.`;

loadDotEnv();
/**
 * The environment with the local defaults: against the local brokers, ops authenticates as its
 * own principal (`ops`: reads dead letters, writes only the topics a replay goes back to) and
 * verifies with the local producers' public keys, unless the environment names its own.
 */
const base = localEnvironment();
const env = (() => {
  if (!usesLocalKafkaCredentials(base)) return base;
  return {
    ...base,
    ...kafkaSaslEnv(localKafkaCredentials(base), 'ops'),
    ...(base.MESSAGE_VERIFY_KEYS ? {} : localVerifyEnv(base, { create: false })),
  };
})();
const out = (line = '') => process.stdout.write(`${line}\n`);

/** A command the tool will not run as configured: said in one line, exit 1. */
class Refusal extends Error {}

function kafka(source: NodeJS.ProcessEnv = env) {
  return createKafka({ brokers: env.KAFKA_BROKERS!.split(','), clientId: 'ops', security: kafkaSecurityFromEnvironment(source) });
}

/**
 * `topic tail` reads any topic, which the `ops` principal may not (it reads dead letters only):
 * against the local brokers it logs in as the local `admin` user; elsewhere with the environment's
 * KAFKA_SASL_* credentials, which must be allowed to read the topic.
 */
function topicReaderEnv(): NodeJS.ProcessEnv {
  return usesLocalKafkaCredentials(base) ? { ...env, ...kafkaSaslEnv(localKafkaCredentials(base), 'admin') } : env;
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

/** One field of a dead letter for a one-line slot: what a producer wrote, so sanitised. */
const field = (value: string | number | undefined, missing = '?') => (value === undefined ? missing : sanitize(String(value), true));

function describeLetter(letter: DeadLetter): string {
  const { original } = letter;
  return [
    sanitize(position(letter), true),
    `  ${field(letter.messageType, '(no type)')} ${field(letter.messageId, '(no message-id)')}${letter.stub ? ' (stub: too large, value not kept)' : ''}`,
    `  reason: ${field(letter.reason)} after ${field(letter.attempts)} attempt(s) in ${field(letter.consumer)} at ${field(letter.deadLetteredAt)}`,
    `  from:   ${field(original.topic)}:${field(original.partition)}:${field(original.offset)}`,
    `  error:  ${field((letter.error ?? '').split('\n')[0], '')}`,
  ].join('\n');
}

function describeRecord(record: StoredRecord): string {
  const header = (name: string, missing: string) => field(headerText(record.headers, name), missing);
  return [
    `${sanitize(`${record.topic}:${record.partition}:${record.offset}`, true)} ${new Date(Number(record.timestamp)).toISOString()}`,
    `  ${header(Headers.messageType, '(no type)')} ${header(Headers.messageId, '(no message-id)')} key ${printableBytes(record.key, true)}`,
    `  value: ${printableBytes(record.value, true)}`,
  ].join('\n');
}

async function topic(args: OpsArgs): Promise<number> {
  const [, action, name] = args.words;
  if (action !== 'tail') throw new UsageError(`unknown topic command ${action ?? '(none)'}`);
  if (!name) throw new UsageError('topic tail needs a topic');
  const limit = integerOption(args, 'limit') ?? 10;
  const records = await readTopic(kafka(topicReaderEnv()), name, { lastPerPartition: limit });
  for (const record of records) out(describeRecord(record));
  out(`${records.length} record(s): the last ${limit} of each partition of ${sanitize(name, true)}`);
  return 0;
}

function letterFilter(args: OpsArgs): LetterFilter {
  return {
    reason: stringOption(args, 'reason'),
    type: stringOption(args, 'type'),
    partition: integerOption(args, 'partition'),
    fromOffset: integerOption(args, 'from-offset'),
    toOffset: integerOption(args, 'to-offset'),
  };
}

/**
 * The public keys every replayed record's signature is checked against: a record goes back only
 * when signed by its type's declared producer. Without them a replay would republish whatever a
 * dead-letter topic holds, so it refuses to run: a record it sends must prove it came from its
 * producer, not from another service or anyone who could write a header.
 */
function replaySigning() {
  const signing = messageVerification(loadConfig(messageVerificationEnv, env));
  if (signing.keys.size === 0)
    throw new Refusal(
      "dlq replay checks every record's signature and MESSAGE_VERIFY_KEYS is not set: set it to the public keys the consumers verify with",
    );
  return signing;
}

async function dlq(args: OpsArgs): Promise<number> {
  const [, action, target] = args.words;
  if (action === 'list') {
    const topics = await deadLetterTopics(kafka(), stringOption(args, 'topic'));
    const filter = letterFilter(args);
    const letters = (await readDeadLetters(kafka(), topics)).filter((letter) => matchesFilter(letter, filter));
    for (const letter of letters) out(describeLetter(letter));
    out(`${letters.length} dead letter(s) in ${topics.length} topic(s)${topics.length ? `: ${topics.join(', ')}` : ''}`);
    // Like grep: a filter that selects nothing is exit 1, so a script can branch on it. An empty
    // list without a filter is a healthy system, not a failed search: exit 0.
    const filtered = Object.values(filter).some((value) => value !== undefined);
    return filtered && letters.length === 0 ? 1 : 0;
  }
  if (action === 'show') {
    if (!target) throw new UsageError('dlq show needs a message id or topic:partition:offset');
    const letters = (await readDeadLetters(kafka(), await deadLetterTopics(kafka(), stringOption(args, 'topic')))).filter((letter) =>
      matchesReference(letter, target),
    );
    for (const letter of letters) {
      out(describeLetter(letter));
      out(`  error (full):\n${sanitize(letter.error ?? '').replace(/^/gm, '    ')}`);
      out(`  key:    ${printableBytes(letter.record.key, true)}`);
      out('  headers:');
      for (const [name, value] of Object.entries(letter.record.headers)) {
        out(
          `    ${sanitize(name, true)}: ${[value]
            .flat()
            .map((one) => printableBytes(one, true))
            .join(', ')}`,
        );
      }
      out(`  value:\n${printableBytes(letter.record.value).replace(/^/gm, '    ')}`);
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
    const destination = replayDestination(topic);
    const dryRun = args.options.get('dry-run') === true;
    const signing = replaySigning();
    let letters = await readDeadLetters(kafka(), [topic]);
    if (offset !== undefined) {
      const partitions = [...new Set(letters.map((letter) => letter.record.partition))];
      const partition = integerOption(args, 'partition') ?? (partitions.length <= 1 ? partitions[0] : undefined);
      if (partition === undefined)
        throw new UsageError(`${topic} has dead letters in partitions ${partitions.join(', ')}: add --partition P`);
      letters = letters.filter((letter) => letter.record.partition === partition && letter.record.offset === offset);
    } else {
      const filter = letterFilter(args);
      letters = letters.filter((letter) => matchesFilter(letter, filter));
    }
    if (letters.length === 0) {
      out(`nothing to replay in ${topic}`);
      return 1;
    }
    const valid: DeadLetter[] = [];
    for (const letter of letters) {
      const problem = replayProblem(letter, destination, signing);
      if (problem)
        out(
          `invalid, not sent: ${sanitize(position(letter), true)} ${field(letter.messageId, '(no message-id)')}: ${sanitize(problem, true)}`,
        );
      else valid.push(letter);
      if (letter.original.topic !== undefined && letter.original.topic !== destination) {
        out(
          `note: ${sanitize(position(letter), true)} names ${field(letter.original.topic)} as its origin; it goes to ${destination}, as the dead-letter topic's name says`,
        );
      }
    }
    if (dryRun) {
      for (const letter of valid)
        out(`would replay ${position(letter)} (${field(letter.messageType)} ${field(letter.messageId)}) to ${destination}`);
      out(
        `dry run: ${valid.length} dead letter(s) would be replayed to ${destination}, ${letters.length - valid.length} invalid; nothing sent`,
      );
      return valid.length === letters.length ? 0 : 1;
    }
    for (const { letter, partition, offset: at } of await replay(kafka(), valid)) {
      out(`replayed ${position(letter)} (${field(letter.messageType)} ${field(letter.messageId)}) to ${destination}:${partition}:${at}`);
    }
    out(
      `${valid.length} dead letter(s) replayed${valid.length < letters.length ? `, ${letters.length - valid.length} invalid not sent` : ''}; the dead-letter topic keeps them (Kafka topics are append-only)`,
    );
    return valid.length === letters.length ? 0 : 1;
  }
  throw new UsageError(`unknown dlq command ${action ?? '(none)'}`);
}

/** The services with an outbox. */
const hasOutbox = (service: string): service is 'orders' | 'inventory' => service === 'orders' || service === 'inventory';

async function outbox(args: OpsArgs): Promise<number> {
  if (args.words[1] !== 'pending') throw new UsageError(`unknown outbox command ${args.words[1] ?? '(none)'}`);
  const service = stringOption(args, 'service');
  if (service !== undefined && !hasOutbox(service)) throw new UsageError('--service must be orders or inventory');
  const database = stringOption(args, 'database');
  if (database && !service) throw new UsageError('--database needs --service');
  const limit = integerOption(args, 'limit') ?? 100;
  const services = service ? [service] : (['orders', 'inventory'] as const);
  for (const name of services) {
    const rows = await withDatabase(database ?? localDatabaseName(name, env), (client) => pendingOutboxRows(client, limit));
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
  const database = stringOption(args, 'database') ?? localDatabaseName('inventory', env);
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
    case 'topic':
      return topic(args);
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
    } else if (error instanceof Refusal) {
      process.stderr.write(`ops: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`ops: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
