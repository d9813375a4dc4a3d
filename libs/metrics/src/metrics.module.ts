import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { HttpMetricsMiddleware } from './http-metrics.middleware.js';
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
export class MetricsModule implements NestModule {
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

  configure(consumer: MiddlewareConsumer): void {
    // `{*path}` (path-to-regexp 8): every path, including `/` and paths no route matches (404s).
    consumer.apply(HttpMetricsMiddleware).forRoutes('{*path}');
  }
}
