import { type DynamicModule, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { MetricsController } from './metrics.controller.js';

/**
 * One prom-client `Registry` per app (not the global default), so tests that build several apps in
 * one process never collide on metric names. Libraries register their metrics on it.
 */
@Module({})
export class MetricsModule {
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
}
