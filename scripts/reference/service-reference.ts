// The generated tables of a service page (docs/services/<name>.md): what it consumes and produces,
// the tables its migrations create, its configuration and its crash windows, each read from the
// declaration the app runs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEnvTable } from '@libs/config';
import type { DatabaseConfig } from '@libs/database';
import { deadLetterTopic, type MessageDeclaration } from '@libs/envelope';
import { findRepoRoot, type ServiceDescriptor } from '@tools/local-stack';
import { tablesOf } from './migration-tables.js';

/** A link from a service page (docs/services/) to a repository file, which must exist. */
function link(path: string): string {
  if (!existsSync(join(findRepoRoot(), path))) throw new Error(`reference: ${path} does not exist`);
  return `[\`${path.split('/').at(-1)}\`](../../${path})`;
}

const code = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');
const keyOf = (messages: readonly MessageDeclaration[]) =>
  code([...new Set(messages.map((message) => message.aggregateIdField ?? '(none)'))]);
const own = (service: ServiceDescriptor, file: string) => `apps/${service.name}/src/${service.name}.${file}.ts`;

/** Topics in and out: direction, topic, message types, record key, and the declaration that says so. */
export function renderTopicsTable(service: ServiceDescriptor): string {
  const rows = [
    ...service.produced.map(
      (produced) =>
        `| out (outbox) | \`${produced.topic}\` | ${code(produced.sends.map((message) => message.type))} | ${code([produced.key])} | ${link(own(service, 'produces'))} |`,
    ),
    ...service.consumed.flatMap((consumed) => [
      `| in (inbox, consumer \`${consumed.consumer}\`) | \`${consumed.topic}\` | ${code(consumed.accepts.map((message) => message.type))} | ${keyOf(consumed.accepts)} | ${link(own(service, 'consumes'))} |`,
      `| out (dead letters) | \`${deadLetterTopic(consumed.topic)}\` | what the inbox refused, as it came | as it came | ${link('libs/inbox/src/dead-letter/dead-letter.publisher.ts')} |`,
    ]),
  ];
  if (rows.length === 0) return 'None: this service neither consumes nor produces Kafka messages.';
  return ['| direction | topic | messages | key (payload field) | declared in |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The tables its migrations create (in migration order), with the migrations that change them later. */
export async function renderTablesTable(service: ServiceDescriptor): Promise<string> {
  // Never connected: the data source is built only to read its migration list.
  const dataSource = service.dataSource({ DATABASE_URL: 'postgres://unused', DATABASE_NAME: service.name } as DatabaseConfig);
  const migrations = (dataSource.options.migrations ?? []) as unknown as Parameters<typeof tablesOf>[0];
  const rows = (await tablesOf(migrations)).map(
    (table) => `| \`${table.name}\` | \`${table.createdBy}\` | ${table.changedBy.length === 0 ? '' : code(table.changedBy)} |`,
  );
  return ['| table | created by | changed by |', '|---|---|---|', ...rows].join('\n');
}

/** Every variable of its environment schema: name, type, default, meaning. */
export function renderConfigurationTable(service: ServiceDescriptor): string {
  return renderEnvTable(service.schema);
}

/** The TSDoc line above each window of a `defineFailpoints` declaration, by key (a comment ends at its own `*\/`: the file's header is not a window's). */
function failpointDocs(source: string): Map<string, string> {
  const docs = new Map<string, string>();
  for (const [, doc, key] of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)\s*:/g)) {
    docs.set(
      key,
      doc
        .replace(/^\s*\*\s?/gm, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  return docs;
}

/** Its own crash windows: the name `FAILPOINTS` takes and what the window is, from its declaration. */
export function renderFailpointsTable(service: ServiceDescriptor): string {
  const path = own(service, 'failpoints');
  const docs = failpointDocs(readFileSync(join(findRepoRoot(), path), 'utf8'));
  const rows = Object.entries(service.failpoints).map(([key, name]) => {
    const doc = docs.get(key);
    if (!doc) throw new Error(`reference: ${path} has no TSDoc on ${key}`);
    return `| \`${name}\` | ${doc.replace(/\|/g, '\\|')} |`;
  });
  return [`Declared in ${link(path)}.`, '', '| failpoint | window |', '|---|---|', ...rows].join('\n');
}
