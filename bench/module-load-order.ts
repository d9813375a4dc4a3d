/**
 * The order in which module-memory.ts imports the runtime dependencies: the apps' own order for the
 * ones that weigh (a shared dependency counts where it is first loaded, so the order decides
 * what each row shows), then every other dependency of package.json, so that a dependency added
 * later is measured too instead of missing from the table.
 */
export const APP_LOAD_ORDER: readonly string[] = [
  'reflect-metadata',
  'pino',
  'pino-pretty',
  'zod',
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
  '@nestjs/core',
  '@nestjs/platform-fastify',
  '@nestjs/microservices',
  'typeorm',
  'pg',
  'kafkajs',
  'class-validator',
  'class-transformer',
  '@nestjs/swagger',
  '@nestjs/terminus',
  '@nestjs/schedule',
  'prom-client',
  'jose',
  'helmet',
];

/**
 * {@link APP_LOAD_ORDER}, then the rest of `dependencies` in name order. Throws on a listed name
 * that is no dependency (any more): the table would otherwise fail half-way, or measure a
 * package the apps no longer load.
 */
export function moduleLoadOrder(dependencies: readonly string[]): string[] {
  const gone = APP_LOAD_ORDER.filter((name) => !dependencies.includes(name));
  if (gone.length > 0) throw new Error(`APP_LOAD_ORDER names packages that are not dependencies in package.json: ${gone.join(', ')}`);
  return [...APP_LOAD_ORDER, ...[...dependencies].filter((name) => !APP_LOAD_ORDER.includes(name)).sort()];
}
