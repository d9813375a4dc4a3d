// Compares two AsyncAPI documents of this project (the last released one, contracts/released/, and
// the current one built from libs/contracts) and lists every change that breaks a topic version
// already in use. Our own JSON Schema comparison rather than @asyncapi/diff: that library sorts
// changes by their place in the document (any edit under a payload is one class), while what
// matters here is JSON Schema meaning: an added optional property is compatible, the same property
// added to `required` is not.
import type { JsonSchema } from './asyncapi-document.js';

/** A subset of an AsyncAPI 3.0 document: what the comparison reads. */
export interface AsyncApiContracts {
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  components: { messages: Record<string, { headers?: JsonSchema; payload?: JsonSchema }> };
}

/** One incompatible change, with what to do instead. */
export interface ContractBreak {
  topic: string;
  message: string;
  /** Where in the payload or headers, e.g. `payload.items[].sku`. */
  path: string;
  /** What changed, and why a reader on the other side of the change fails. */
  what: string;
}

/** The advice every break ends with; docs/contracts.md explains both ways. */
export const WHAT_TO_DO =
  'Keep the change compatible (add an optional field; a consumer of the released contract ignores it, and a new consumer handles its absence), ' +
  'or publish the new shape on a new topic version (e.g. orders.order.v2) beside the old one until every consumer has moved. See docs/contracts.md.';

/** Keywords that only document a schema; changing them changes no reader's behaviour. */
const DOCUMENTATION = new Set(['description', 'title', 'examples', '$comment']);

const messageOf = (document: AsyncApiContracts, ref: string) => document.components.messages[ref.replace('#/components/messages/', '')];
const channelsByTopic = (document: AsyncApiContracts) =>
  new Map(Object.values(document.channels).map((channel) => [channel.address, channel] as const));

/** The schema without its documentation keywords and without the parts compared on their own. */
function constraints(schema: JsonSchema): string {
  const own = Object.entries(schema).filter(
    ([key]) => !DOCUMENTATION.has(key) && !['properties', 'required', 'items', 'additionalProperties'].includes(key),
  );
  return JSON.stringify(Object.fromEntries(own.sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * Breaks between the released and the current schema of one value: both directions matter, since
 * a new consumer meets old records (retention, replayed dead letters) and an old consumer meets new
 * ones (rolling deploy).
 */
function schemaBreaks(released: JsonSchema, current: JsonSchema, path: string): string[] {
  const breaks: string[] = [];
  if (current.additionalProperties === false && released.additionalProperties !== false) {
    breaks.push(`${path}: refuses unknown fields (additionalProperties: false); a consumer must be a tolerant reader`);
  }
  if (constraints(released) !== constraints(current)) {
    breaks.push(
      `${path}: its constraints changed from ${constraints(released)} to ${constraints(current)}; one side refuses what the other writes`,
    );
  }
  const releasedProperties = (released.properties ?? {}) as Record<string, JsonSchema>;
  const currentProperties = (current.properties ?? {}) as Record<string, JsonSchema>;
  const releasedRequired = new Set((released.required ?? []) as string[]);
  const currentRequired = new Set((current.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(currentProperties)) {
    const field = `${path}.${name}`;
    const before = releasedProperties[name];
    if (!before) {
      if (currentRequired.has(name)) breaks.push(`${field}: added as a required field; records written by the released contract lack it`);
      continue;
    }
    if (currentRequired.has(name) && !releasedRequired.has(name)) {
      breaks.push(`${field}: was optional and became required; records written by the released contract may lack it`);
    }
    if (!currentRequired.has(name) && releasedRequired.has(name)) {
      breaks.push(`${field}: was required and became optional; consumers of the released contract refuse a record without it`);
    }
    breaks.push(...schemaBreaks(before, schema, field));
  }
  for (const name of Object.keys(releasedProperties)) {
    if (!(name in currentProperties) && releasedRequired.has(name)) {
      breaks.push(`${path}.${name}: a required field was removed; consumers of the released contract refuse records without it`);
    }
  }
  if (released.items || current.items) {
    breaks.push(...schemaBreaks((released.items ?? {}) as JsonSchema, (current.items ?? {}) as JsonSchema, `${path}[]`));
  }
  return breaks;
}

/** Every change from `released` to `current` that breaks a topic version of `released`. */
export function contractBreaks(released: AsyncApiContracts, current: AsyncApiContracts): ContractBreak[] {
  const breaks: ContractBreak[] = [];
  const currentChannels = channelsByTopic(current);
  for (const [topic, channel] of channelsByTopic(released)) {
    const now = currentChannels.get(topic);
    if (!now) {
      breaks.push({
        topic,
        message: '*',
        path: topic,
        what: 'the topic is gone; consumers and retained records of the released contract still use it',
      });
      continue;
    }
    for (const [name, ref] of Object.entries(channel.messages)) {
      const nowRef = now.messages[name];
      if (!nowRef) {
        breaks.push({
          topic,
          message: name,
          path: name,
          what: 'the message type is gone; retained records and dead letters of it would be refused',
        });
        continue;
      }
      const before = messageOf(released, ref.$ref);
      const after = messageOf(current, nowRef.$ref);
      for (const part of ['headers', 'payload'] as const) {
        for (const what of schemaBreaks(before[part] ?? {}, after[part] ?? {}, part)) {
          const [path, ...rest] = what.split(': ');
          breaks.push({ topic, message: name, path, what: rest.join(': ') });
        }
      }
    }
    for (const name of Object.keys(now.messages)) {
      if (!(name in channel.messages)) {
        breaks.push({
          topic,
          message: name,
          path: name,
          what: 'a new message type on a released topic; consumers of the released contract dead-letter it (UNKNOWN_TYPE). Release consumers that accept it first, then refresh the released document (npm run contracts:release)',
        });
      }
    }
  }
  return breaks;
}

/** The failure text: each break on a line of its own, then what to do. */
export function describeBreaks(breaks: ContractBreak[]): string {
  const lines = breaks.map((each) => `- ${each.message} on ${each.topic}, ${each.path}: ${each.what}`);
  return [`Breaking change to a released topic version (contracts/released/asyncapi.json):`, ...lines, WHAT_TO_DO].join('\n');
}
