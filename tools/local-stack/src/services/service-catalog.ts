// What local tooling (npm start, db:migrate, env:example, the tests and benchmarks that start
// services) and the compose checks need to know about each service: the one list of them. Tools may
// import an app's public entry (`@apps/<name>`: config schema, consumes declaration), never its
// files; libraries never import apps, and apps never import tools.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvSchema } from '@app/config';
import { Topics } from '@app/contracts';
import { consumedTopics } from '@app/inbox';
import { inventoryConsumes, inventoryEnv } from '@apps/inventory';
import { loyaltyEnv } from '@apps/loyalty';
import { ordersConsumes, ordersEnv } from '@apps/orders';

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
  /** Infrastructure it cannot start without (compose `depends_on`). */
  readonly needs: readonly ('postgres' | 'kafka')[];
  /** The topics it consumes, from its consumes declaration (loyalty has none). */
  readonly consumes: readonly string[];
  /** The topics its outbox relay publishes to (loyalty has none): what its Kafka principal may write. */
  readonly produces: readonly string[];
}

/** The three services, in start order. */
export const services: readonly ServiceDescriptor[] = [
  {
    name: 'orders',
    schema: ordersEnv,
    portVariable: 'ORDERS_PORT',
    needs: ['postgres', 'kafka'],
    consumes: consumedTopics(ordersConsumes),
    produces: [Topics.orders],
  },
  {
    name: 'inventory',
    schema: inventoryEnv,
    portVariable: 'INVENTORY_PORT',
    needs: ['postgres', 'kafka'],
    consumes: consumedTopics(inventoryConsumes),
    produces: [Topics.reservations],
  },
  { name: 'loyalty', schema: loyaltyEnv, portVariable: 'LOYALTY_PORT', needs: ['postgres'], consumes: [], produces: [] },
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
