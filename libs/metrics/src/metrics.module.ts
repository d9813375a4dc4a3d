import { type DynamicModule, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerHttpMetrics } from './http-metrics.hooks.js';
import { MetricsController } from './metrics.controller.js';

/**
 * `GET /metrics` and the HTTP request duration histogram of every route.
 *
 * One prom-client `Registry` per app (not the global default), so tests that build several apps in
 * one process never collide on metric names. Libraries register their metrics on it.
 * Global, as the app's `DataSource` is: every library's metrics class needs the one registry, and
 * a registry per importing module would split `/metrics`.
 */
@Module({})
export class MetricsModule implements OnModuleInit {
  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(Registry) private readonly registry: Registry,
  ) {}

  static forRoot(options: { service: string }): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        {
          provide: Registry,
          useFactory: () => {
            const registry = new Registry();
            registry.setDefaultLabels({ service: options.service });
            collectDefaultMetrics({ register: registry });
            return registry;
          },
        },
      ],
      exports: [Registry],
    };
  }

  onModuleInit(): void {
    // Module init runs before the server is ready, which is when Fastify attaches root hooks to
    // every route, the not-found one included. A context without an HTTP server has nothing to time.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify) registerHttpMetrics(fastify, this.registry);
  }
}
