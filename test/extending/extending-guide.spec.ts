import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { checkEnvelope, Headers } from '@libs/envelope';
import type { InboxEnvelope, LockNeeds } from '@libs/inbox';
import { services } from '@tools/local-stack';
import { buildAsyncApiDocument } from '../../scripts/asyncapi-document.js';
import { referencePages } from '../../scripts/reference/reference-pages.js';
import {
  OrderEventsAccepted,
  OrderShipped,
  sampleConsumes,
  sampleProduces,
  OrderEventsHandler,
  StockBatchLocks,
} from './order-shipped.fixture.js';
import { guideSteps, untaggedBlocks } from './guide-steps.js';

// docs/extending.md tells a contributor which files to touch and which helpers to call. This spec
// follows it: the sample declaration (the guide's code, in order-shipped.fixture.ts) goes through
// the helpers the apps use, and the page's file links, named functions and imports must exist.
const root = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = 'docs/extending.md';
const guide = readFileSync(join(root, GUIDE), 'utf8');
const fixture = readFileSync(new URL('./order-shipped.fixture.ts', import.meta.url), 'utf8');

const ORDER_ID = '0b6f5c1e-6f5e-4d8a-9d43-5a8f0f0c2b11';
const shipment: OrderShipped = { orderId: ORDER_ID, customerId: 'c-1', carrier: 'DHL', shippedAt: '2026-12-01T12:00:00.000Z' };

/** A record of `OrderShipped` as the outbox writes it: envelope headers, key and JSON value. */
function sampleRecord(key = ORDER_ID) {
  return {
    topic: Topics.orders,
    key,
    value: JSON.stringify(shipment),
    headers: {
      [Headers.messageId]: '7d0f1f0e-0c1b-4a59-9b1e-0e3c9c4b7a10',
      [Headers.messageType]: OrderShipped.type,
      [Headers.schemaVersion]: String(OrderShipped.schemaVersion),
      [Headers.aggregateId]: ORDER_ID,
    },
  };
}

/** The guide split into blocks: paragraphs and list items outside code, and fenced code blocks. */
function blocksOf(markdown: string): { prose: string[]; code: string[] } {
  const prose: string[] = [];
  const code: string[] = [];
  let current: string[] = [];
  let fence: string[] | undefined;
  const flush = () => {
    if (current.length > 0) prose.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (fence) {
        code.push(fence.join('\n'));
        fence = undefined;
      } else {
        flush();
        fence = [];
      }
    } else if (fence) fence.push(line);
    else if (line.trim() === '' || /^#{1,6}\s/.test(line)) flush();
    else {
      if (/^\s*(?:-|\d+\.)\s/.test(line)) flush();
      current.push(line);
    }
  }
  flush();
  return { prose, code };
}

const { prose, code } = blocksOf(guide);
const linksOf = (block: string) =>
  [...block.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map(([, target]) => join(dirname(GUIDE), target))
    .filter((path) => !/^[a-z]+:/i.test(path));
const source = (path: string) => readFileSync(join(root, path), 'utf8');
const mentions = (text: string, name: string) => new RegExp(`\\b${name}\\b`).test(text);

/** Problems with the functions a block names (`` `OutboxWriter.add()` ``): each must be in a file the block links. */
function unnamedCalls(block: string): string[] {
  const files = linksOf(block).filter((path) => existsSync(join(root, path)) && /\.(ts|json|ya?ml)$/.test(path));
  const problems: string[] = [];
  for (const [, span] of block.matchAll(/`@?([A-Za-z_$][\w$.]*)\(\)`/g)) {
    const names = span.split('.').filter((name) => name !== 'this');
    // `CommandsModule.forRoot()`: the class and its method; `this.tx.run()`: the method.
    const wanted = /^[A-Z]/.test(names[0]) ? [names[0], names.at(-1)!] : [names.at(-1)!];
    if (!files.some((file) => wanted.every((name) => mentions(source(file), name)))) {
      problems.push(`${span}() is in none of ${files.join(', ') || '(no linked file)'}`);
    }
  }
  return problems;
}

/** What the guide's tagged blocks add to a file (`OrderShipped` to libs/contracts/src/index.ts): exported once the guide is applied. */
const addedByGuide = (path: string) =>
  guideSteps(guide)
    .flatMap((step) => (step.kind === 'apply' && step.file === path ? [step.code] : []))
    .join('\n');

/**
 * Problems with a code block's imports: each name imported from `@libs/<lib>` must be exported by
 * its index.ts, as it is or with the guide's own blocks for it applied.
 */
function unexportedImports(block: string): string[] {
  const problems: string[] = [];
  for (const [, names, library] of block.matchAll(/import(?: type)? \{([^}]*)\} from '@libs\/([\w-]+)'/g)) {
    const index = `libs/${library}/src/index.ts`;
    if (!existsSync(join(root, index))) {
      problems.push(`@libs/${library}: no ${index}`);
      continue;
    }
    for (const name of names
      .split(',')
      .map((part) => part.replace(/^\s*type\s+/, '').trim())
      .filter(Boolean)) {
      if (!mentions(`${source(index)}\n${addedByGuide(index)}`, name)) problems.push(`${name} is not exported by @libs/${library}`);
    }
  }
  return problems;
}

describe('docs/extending.md, followed', () => {
  it('when the sample message is declared as the guide shows, then the fixture holds that declaration verbatim', () => {
    const declaration = code[0]
      .split('\n')
      .filter((line) => !line.startsWith('import '))
      .join('\n')
      .trim();
    expect(declaration).toContain("type: 'OrderShipped'");
    expect(fixture).toContain(declaration);
  });

  it('when inventory declares the topic with the new message, then consumedTopic accepts it and routes it to its typed handler and lock entry', async () => {
    const [consumed] = sampleConsumes;
    expect(consumed.accepts.map((message) => message.type)).toEqual(['OrderCreated', 'OrderCancelled', 'OrderShipped']);
    const handler = new OrderEventsHandler();
    const locks = new StockBatchLocks();
    const instances = new Map<unknown, unknown>([
      [OrderEventsHandler, handler],
      [StockBatchLocks, locks],
    ]);
    const route = consumed.route(<T>(type: new (...args: never[]) => T) => instances.get(type) as T);

    const check = checkEnvelope(sampleRecord(), route.accepts, consumed.consumer);
    expect(check).toMatchObject({ valid: true, message: { messageType: 'OrderShipped', payload: shipment } });
    if (!check.valid) return;
    const envelope: InboxEnvelope = { ...check.message, topic: Topics.orders, partition: 0, offset: '0', key: ORDER_ID, payloadHash: 'h' };
    await route.lock([envelope]);
    await route.handle('OrderShipped', [envelope]);
    expect(locks.taken).toEqual([[{ skus: [] }]]);
    expect(handler.shipped).toEqual([ORDER_ID]);
  });

  it('when a record of the new message is keyed by another order or lacks a field, then the inbox check refuses it before any handler', () => {
    const accepts = sampleConsumes[0].accepts;
    expect(checkEnvelope(sampleRecord('11111111-1111-4111-8111-111111111111'), accepts, 'guide')).toMatchObject({
      valid: false,
      reason: 'AGGREGATE_MISMATCH',
    });
    const { carrier: _carrier, ...withoutCarrier } = shipment;
    expect(checkEnvelope({ ...sampleRecord(), value: JSON.stringify(withoutCarrier) }, accepts, 'guide')).toMatchObject({
      valid: false,
      reason: 'SCHEMA_VIOLATION',
    });
  });

  it('when a message type is added without its lock entry, then it does not compile', () => {
    // @ts-expect-error OrderShipped has no entry: a message that needs no locks still says so.
    const needs: LockNeeds<OrderEventsAccepted, string> = { OrderCreated: () => 'a', OrderCancelled: () => 'b' };
    expect(Object.keys(needs)).toHaveLength(2);
  });

  it('when the message is in OrderEvents (step 1), then orders declares it produced, keyed by orderId, and the AsyncAPI document lists it (step 6)', () => {
    const [produced] = sampleProduces;
    expect(produced.sends.map((message) => message.type)).toContain('OrderShipped');
    expect(produced.key).toBe('orderId');
    const withShipped = services.map((service) => {
      if (service.name === 'orders') return { ...service, produced: sampleProduces };
      if (service.name === 'inventory') return { ...service, consumed: sampleConsumes };
      return service;
    });
    const document = buildAsyncApiDocument('0.0.0', withShipped) as { components: { messages: Record<string, { payload: unknown }> } };
    expect(document.components.messages.OrderShipped?.payload).toMatchObject({
      required: expect.arrayContaining(['orderId', 'carrier']),
    });
    expect(JSON.stringify(document)).toContain('#/components/messages/OrderShipped');
  });

  it('when the guide counts the files an event touches, then the count is its table, each file exists or its folder does, and the generated ones are what docs:reference writes', () => {
    const section = guide.slice(guide.indexOf('### The files it touches'), guide.indexOf('## Add a consumer in a new service'));
    const rows = [...section.matchAll(/^\| (\d+) \| `([^`]+)` \| `([^`]+)` \| (edit|new|generated|released) \|$/gm)].map(
      ([, , folder, file, how]) => ({
        path: `${folder}${file}`,
        folder,
        how,
      }),
    );
    const [, total, byHand, generated, released] =
      /\*\*(\d+) files\*\*: (\d+) written by hand, (\d+) rewritten by\s+`npm run docs:reference`, (\d+) by\s+`npm run contracts:release`/.exec(
        section,
      ) ?? [];
    expect(rows.length).toBeGreaterThan(0);
    expect([Number(total), Number(byHand), Number(generated), Number(released)]).toEqual([
      rows.length,
      rows.filter((row) => row.how === 'edit' || row.how === 'new').length,
      rows.filter((row) => row.how === 'generated').length,
      rows.filter((row) => row.how === 'released').length,
    ]);
    // A new message on a released topic fails the contract check until the release step records it.
    expect(rows.filter((row) => row.how === 'released').map((row) => row.path)).toEqual(['contracts/released/asyncapi.json']);
    expect(rows.filter((row) => !existsSync(join(root, row.how === 'new' ? row.folder : row.path)))).toEqual([]);
    const generatedPaths = referencePages().map((page) => page.path);
    expect(rows.filter((row) => row.how === 'generated' && !generatedPaths.includes(row.path))).toEqual([]);
    // The declarations that must change with a produced or consumed message are in the list.
    expect(rows.map((row) => row.path)).toEqual(
      expect.arrayContaining(['libs/contracts/src/order-events.ts', 'apps/inventory/src/inventory.consumes.ts']),
    );
  });

  it('when the guide links a file, then it exists; and it names the files of every step', () => {
    const links = prose.flatMap(linksOf);
    expect(links.filter((path) => !existsSync(join(root, path)))).toEqual([]);
    expect(links).toEqual(
      expect.arrayContaining([
        'libs/contracts/src/order-events.ts',
        'libs/outbox/src/write/outbox.writer.ts',
        'apps/inventory/src/inventory.consumes.ts',
        'apps/inventory/src/reservations/stock-batch-locks.ts',
        'scripts/asyncapi-document.ts',
        'apps/orders/src/orders.produces.ts',
        'libs/outbox/src/write/outbox.produces.ts',
        'libs/commands/src/command.module.ts',
        'libs/commands/src/write/command.writer.ts',
      ]),
    );
  });

  it('when the guide names a function in a paragraph, then a file that paragraph links defines or uses it', () => {
    expect(prose.flatMap(unnamedCalls)).toEqual([]);
    // Not vacuous: the guide names the helpers of every step (checkEnvelope, CommandWriter.enqueue, ...).
    expect(prose.join('\n').match(/`@?[\w$.]+\(\)`/g)?.length).toBeGreaterThanOrEqual(20);
  });

  it('when a code block of the guide imports from a library, then the library exports every name', () => {
    expect(code.filter((block) => block.includes("from '@libs/")).length).toBeGreaterThanOrEqual(3);
    expect(code.flatMap(unexportedImports)).toEqual([]);
  });

  it('when the event recipe shows code or a command, then the block is tagged for extending-guide.int-spec.ts to apply or run', () => {
    const recipe = guide.slice(0, guide.indexOf('## Add a consumer in a new service'));
    expect(untaggedBlocks(recipe).map((line) => `docs/extending.md:${line}`)).toEqual([]);
    expect(guideSteps(recipe).length).toBeGreaterThanOrEqual(15);
  });

  it('when a paragraph names a function no linked file has, then the check says so (the checks can fail)', () => {
    expect(unnamedCalls('Call `noSuchHelper()` of [`topics.ts`](../libs/contracts/src/topics.ts).')).toEqual([
      'noSuchHelper() is in none of libs/contracts/src/topics.ts',
    ]);
    expect(unexportedImports("import { Topics, NoSuchThing } from '@libs/contracts';")).toEqual([
      'NoSuchThing is not exported by @libs/contracts',
    ]);
  });
});
