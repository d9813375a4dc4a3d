// What local tooling (npm start, db:migrate, env:example, the tests and benchmarks that start
// services) and the compose checks need to know about each service: the one list of them. Tools may
// import an app's public entry (`@apps/<name>`: config schema, consumes and produces declarations), never its
// files; libraries never import apps, and apps never import tools.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { EnvSchema } from '@libs/config';
import type { DatabaseConfig } from '@libs/database';
import type { FailpointName } from '@libs/failpoints';
import { type AppConsumes, consumedTopics } from '@libs/inbox';
import { type AppProduces, producedTopics } from '@libs/outbox';
import { createInventoryDataSource, InventoryFailpoints, inventoryConsumes, inventoryEnv, inventoryProduces } from '@apps/inventory';
import { createLoyaltyDataSource, LoyaltyFailpoints, loyaltyEnv } from '@apps/loyalty';
import { createOrdersDataSource, OrdersFailpoints, ordersConsumes, ordersEnv, ordersProduces } from '@apps/orders';

/** The services of the workspace, by name. */
export type ServiceName = 'orders' | 'inventory' | 'loyalty';

/** One deployable service of the workspace. */
export interface ServiceDescriptor {
  /** Folder under `apps/`, compose service name and log prefix. */
  readonly name: ServiceName;
  /** Its environment schema: the single source of truth for its configuration. */
  readonly schema: EnvSchema;
  /** The schema variable holding its HTTP port. */
  readonly portVariable: string;
  /** Its data source (not connected): its entities and migrations, for tooling that reads them. */
  readonly dataSource: (config: DatabaseConfig) => DataSource;
  /** Its own crash windows, from its failpoints declaration. */
  readonly failpoints: Readonly<Record<string, FailpointName>>;
  /** Infrastructure it cannot start without (compose `depends_on`). */
  readonly needs: readonly ('postgres' | 'kafka')[];
  /** Its consumes declaration: topics, accepted messages, consumer names (loyalty has none). */
  readonly consumed: AppConsumes;
  /** Its produces declaration: topics, messages and keys its outbox writes (loyalty has none). */
  readonly produced: AppProduces;
  /** The topics it consumes, from {@link consumed}: what its Kafka principal may read. */
  readonly consumes: readonly string[];
  /** The topics its outbox relay publishes to, from {@link produced}: what its Kafka principal may write. */
  readonly produces: readonly string[];
}

/** A catalog entry from what the app declares: the topic lists derive from its declarations. */
function service(
  entry: Omit<ServiceDescriptor, 'consumes' | 'produces' | 'consumed' | 'produced'>,
  consumed: AppConsumes = [],
  produced: AppProduces = [],
): ServiceDescriptor {
  return { ...entry, consumed, produced, consumes: consumedTopics(consumed), produces: producedTopics(produced) };
}

/** The three services, in start order. */
export const services: readonly ServiceDescriptor[] = [
  service(
    {
      name: 'orders',
      schema: ordersEnv,
      portVariable: 'ORDERS_PORT',
      dataSource: createOrdersDataSource,
      failpoints: OrdersFailpoints,
      needs: ['postgres', 'kafka'],
    },
    ordersConsumes,
    ordersProduces,
  ),
  service(
    {
      name: 'inventory',
      schema: inventoryEnv,
      portVariable: 'INVENTORY_PORT',
      dataSource: createInventoryDataSource,
      failpoints: InventoryFailpoints,
      needs: ['postgres', 'kafka'],
    },
    inventoryConsumes,
    inventoryProduces,
  ),
  service({
    name: 'loyalty',
    schema: loyaltyEnv,
    portVariable: 'LOYALTY_PORT',
    dataSource: createLoyaltyDataSource,
    failpoints: LoyaltyFailpoints,
    needs: ['postgres'],
  }),
];

/** The catalog entry of `name`. */
export function serviceNamed(name: ServiceName): ServiceDescriptor {
  return services.find((service) => service.name === name)!;
}

/** Where a service's compiled entry point lies inside a build output directory (`dist/`). */
export function builtEntry(name: ServiceName, file: 'main' | 'migrate' | 'seed'): string {
  return `apps/${name}/src/${file}.js`;
}

/** Compiled server entry, relative to the repository root (as `npm start` and the compose file run it). */
export function mainEntry(service: ServiceDescriptor): string {
  return `dist/${builtEntry(service.name, 'main')}`;
}

/** Compiled migration entry (creates the database, applies migrations), relative to the repository root. */
export function migrateEntry(service: ServiceDescriptor): string {
  return `dist/${builtEntry(service.name, 'migrate')}`;
}

/** The port the service will listen on with `env`, parsed by its own schema (so `abc` fails here too). */
export function servicePort(service: ServiceDescriptor, env: NodeJS.ProcessEnv): number {
  const result = service.schema[service.portVariable].safeParse(env[service.portVariable] || undefined);
  if (!result.success) throw new Error(`${service.portVariable} ${result.error.issues.map((issue) => issue.message).join('; ')}`);
  return Number(result.data);
}

/**
 * Splits services into those with both entry points in source and those without. The workspace
 * grows one app at a time; an app that has no `main.ts` yet is reported and skipped rather than
 * failing every other app's local start.
 */
export function partitionByPresence(repoRoot: string): { present: ServiceDescriptor[]; absent: ServiceDescriptor[] } {
  const hasSources = (service: ServiceDescriptor) =>
    ['main.ts', 'migrate.ts'].every((file) => existsSync(join(repoRoot, 'apps', service.name, 'src', file)));
  return { present: services.filter(hasSources), absent: services.filter((service) => !hasSources(service)) };
}
