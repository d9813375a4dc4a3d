// The AsyncAPI 3.0 document of the project's Kafka topics, built from what each app declares it
// produces and consumes (through the service catalog) and from libs/contracts: topic names, header
// names, message types and payload schemas all come from the declarations producers and consumers
// run, so the document cannot promise what the code does not check.
// `npm run asyncapi` writes it; test/asyncapi.spec.ts fails when the committed copy is stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timestamp, uuid } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers, jsonSchemaOf, type MessageDeclaration } from '@libs/envelope';
import { findRepoRoot, type ServiceDescriptor, services } from '@tools/local-stack';

/** Where the document is committed, relative to the repository root. */
export const ASYNCAPI_PATH = 'docs/asyncapi.json';

/** A JSON Schema (draft-07, the dialect AsyncAPI's schema format extends), as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** Kafka bindings version of every `bindings.kafka` object below. */
const KAFKA_BINDING_VERSION = '0.5.0';

/** A topic's flow: its channel id, the app that writes it and what, and the apps that read it. */
interface Flow {
  readonly id: string;
  readonly topic: string;
  readonly producer: string;
  readonly sends: readonly MessageDeclaration[];
  readonly consumer: string;
}

/**
 * The channel id of a topic `<context>.<aggregate>.v<N>`: `orderEvents` for `orders.order.v1`,
 * `orderV2Events` for its `.v2` beside it.
 */
function channelIdOf(topic: string): string {
  const match = /^[a-z][\w-]*\.([a-z][\w-]*)\.v(\d+)$/.exec(topic);
  if (!match) throw new Error(`asyncapi: topic ${topic} is not named <context>.<aggregate>.v<N>`);
  const aggregate = match[1].replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
  return `${aggregate}${match[2] === '1' ? '' : `V${match[2]}`}Events`;
}

/** Every produced topic of `of`, in catalog order, with the apps whose consumes declaration names it. */
function flowsOf(of: readonly ServiceDescriptor[]): Flow[] {
  return of.flatMap((service) =>
    service.produced.map((produced) => {
      const consumers = of.filter((each) => each.consumes.includes(produced.topic)).map((each) => each.name);
      if (consumers.length === 0) throw new Error(`asyncapi: ${service.name} produces ${produced.topic}, which no app consumes`);
      return {
        id: channelIdOf(produced.topic),
        topic: produced.topic,
        producer: service.name,
        sends: produced.sends,
        consumer: consumers.join(' and '),
      };
    }),
  );
}

/** A header value: Kafka headers are bytes; every header of this project is UTF-8 text. */
const text = (description: string, schema: JsonSchema = { type: 'string' }): JsonSchema => ({ ...schema, description });

/** The envelope headers the outbox writer puts on every message (libs/outbox's `OutboxWriter.add`). */
function envelopeHeaderProperties(definition?: MessageDeclaration): Record<string, JsonSchema> {
  return {
    [Headers.messageId]: text(
      'Id of the outbox row: stable across republishing, the consumer inbox deduplication key.',
      jsonSchemaOf(uuid()),
    ),
    [Headers.messageType]: text(
      'The message type; a consumer dead-letters a type its handler does not accept (UNKNOWN_TYPE).',
      definition ? { type: 'string', enum: [definition.type] } : { type: 'string' },
    ),
    [Headers.schemaVersion]: text(
      'Payload schema version, as decimal text; another version is dead-lettered (UNSUPPORTED_SCHEMA_VERSION).',
      definition ? { type: 'string', enum: [String(definition.schemaVersion)] } : { type: 'string' },
    ),
    [Headers.aggregateId]: text('Id of the aggregate (the order) the message is about; also the record key.'),
    [Headers.occurredAt]: text('When the producing transaction wrote the message (ISO-8601).', jsonSchemaOf(timestamp())),
    [Headers.correlationId]: text('Id shared by every message of one business flow; the aggregate id when none was given.'),
    [Headers.causationId]: text(
      'Message id of the message whose handling produced this one; absent on messages caused by an HTTP request.',
    ),
    [Headers.traceparent]: text('W3C trace context of the span that wrote the message, so one trace spans every service.', {
      type: 'string',
      pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
    }),
  };
}

function envelopeHeaders(definition: MessageDeclaration): JsonSchema {
  const properties = envelopeHeaderProperties(definition);
  return { type: 'object', properties, required: Object.keys(properties).filter((name) => name !== Headers.causationId) };
}

/** The record key: the aggregate id, so every message of one order goes to one partition, in order. */
const keyBinding = {
  kafka: { key: text('The aggregate (order) id: one order, one partition, its messages in order.'), bindingVersion: KAFKA_BINDING_VERSION },
};

/** The headers a consumer adds when it dead-letters a message (libs/inbox's `DeadLetterPublisher`). */
function deadLetterHeaders(): JsonSchema {
  const dlq: Record<string, JsonSchema> = {
    [DeadLetterHeaders.reason]: text(
      'Stable code: NOT_JSON, MISSING_MESSAGE_ID, UNKNOWN_TYPE, UNSUPPORTED_SCHEMA_VERSION, SCHEMA_VIOLATION (never retried), PAYLOAD_MISMATCH (a known message id with another payload) or HANDLER_FAILED (the handler failed every attempt).',
    ),
    [DeadLetterHeaders.error]: text('The error, for a person (at most 4000 characters).', { type: 'string', maxLength: 4000 }),
    [DeadLetterHeaders.attempts]: text(
      'Handler attempts before dead-lettering, as decimal text; 0 when the message was refused before any.',
    ),
    [DeadLetterHeaders.consumer]: text('The consumer that gave up on the message.'),
    [DeadLetterHeaders.originalTopic]: text('The topic the message was read from; replay sends it back there.'),
    [DeadLetterHeaders.originalPartition]: text('Its partition there, as decimal text.'),
    [DeadLetterHeaders.originalOffset]: text('Its offset there, as decimal text.'),
    [DeadLetterHeaders.deadLetteredAt]: text('When it was dead-lettered (ISO-8601).', jsonSchemaOf(timestamp())),
  };
  // The original headers are kept as they were: possibly missing or malformed, since that may be
  // why the message is here, so none of them is required.
  return { type: 'object', properties: { ...envelopeHeaderProperties(), ...dlq }, required: Object.keys(dlq) };
}

const messageRef = (name: string) => ({ $ref: `#/components/messages/${name}` });
const channelRef = (id: string) => ({ $ref: `#/channels/${id}` });
const channelMessageRef = (id: string, name: string) => ({ $ref: `#/channels/${id}/messages/${name}` });
const deadLetterName = (flowId: string) => `${flowId.replace(/Events$/, '')}DeadLetter`;

/**
 * The document, as a plain object in a stable key order. `version` defaults to package.json's, the
 * only input not taken from the declarations; `of` (default: the service catalog) is what a test
 * swaps to see a declaration change reach the document.
 */
export function buildAsyncApiDocument(
  version: string = packageVersion(),
  of: readonly ServiceDescriptor[] = services,
): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const flow of flowsOf(of)) {
    const { topic } = flow;
    const names = flow.sends.map((definition) => definition.type);
    for (const definition of flow.sends) {
      messages[definition.type] = {
        name: definition.type,
        title: `${definition.type} v${definition.schemaVersion}`,
        contentType: 'application/json',
        headers: envelopeHeaders(definition),
        payload: jsonSchemaOf(definition.schema),
        bindings: keyBinding,
      };
    }
    const deadLetter = deadLetterName(flow.id);
    messages[deadLetter] = {
      name: deadLetter,
      title: `A dead-lettered message of ${topic}`,
      summary: `A message of ${topic} that ${flow.consumer} could not handle, with the reason in dlq-* headers.`,
      contentType: 'application/json',
      headers: deadLetterHeaders(),
      payload: {
        description: `The original value, byte for byte: one of ${names.join(', ')}, or what failed to be one (the reason says which).`,
      },
      bindings: keyBinding,
    };
    const dlqId = `${flow.id}DeadLetters`;
    channels[flow.id] = {
      address: topic,
      title: topic,
      description: `Written by ${flow.producer} through its outbox, read by ${flow.consumer} through its inbox. Key: the aggregate id.`,
      messages: Object.fromEntries(names.map((name) => [name, messageRef(name)])),
      bindings: { kafka: { topic, bindingVersion: KAFKA_BINDING_VERSION } },
    };
    channels[dlqId] = {
      address: deadLetterTopic(topic),
      title: deadLetterTopic(topic),
      description: `Dead letters of ${topic}, written by ${flow.consumer}; \`npm run ops -- dlq\` lists and replays them.`,
      messages: { [deadLetter]: messageRef(deadLetter) },
      bindings: { kafka: { topic: deadLetterTopic(topic), bindingVersion: KAFKA_BINDING_VERSION } },
    };
    const eventMessages = names.map((name) => channelMessageRef(flow.id, name));
    operations[`${flow.producer}Sends${capitalize(flow.id)}`] = {
      action: 'send',
      channel: channelRef(flow.id),
      summary: `${flow.producer} publishes ${names.join(', ')} from its outbox (at least once, in order per key).`,
      messages: eventMessages,
    };
    operations[`${flow.consumer}Receives${capitalize(flow.id)}`] = {
      action: 'receive',
      channel: channelRef(flow.id),
      summary: `${flow.consumer} handles ${names.join(', ')} once per message id, through its inbox.`,
      messages: eventMessages,
    };
    operations[`${flow.consumer}DeadLetters${capitalize(flow.id)}`] = {
      action: 'send',
      channel: channelRef(dlqId),
      summary: `${flow.consumer} dead-letters a message of ${topic} it can never handle, then commits past it.`,
      messages: [channelMessageRef(dlqId, deadLetter)],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'nest-outbox-inbox-reference events',
      version,
      description:
        'The Kafka topics between orders and inventory. Generated from libs/contracts by `npm run asyncapi`; do not edit. Every text field is also checked to be well-formed Unicode without U+0000, and lengths count Unicode code points.',
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: '127.0.0.1:9092',
        protocol: 'kafka',
        description: 'The broker of `npm run kafka:local` and docker compose (KAFKA_BROKERS).',
      },
    },
    channels,
    operations,
    components: { messages },
  };
}

/** The document as committed: JSON, two-space indent, trailing newline. */
export function renderAsyncApiDocument(version?: string): string {
  return `${JSON.stringify(buildAsyncApiDocument(version), null, 2)}\n`;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(findRepoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
