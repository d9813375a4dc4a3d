import { type DynamicModule, Module } from '@nestjs/common';
import { BacklogSampler, LOAD_SHEDDING_OPTIONS, type LoadSheddingOptions } from './backlog-sampler.js';
import { LoadSheddingGuard } from './load-shedding.guard.js';

/**
 * The backlog sampler and the guard of `@ShedWhenBacklogged()` routes. Global, as the guard is
 * resolved in each controller's module. Needs `MetricsModule` (the prom-client `Registry`).
 */
@Module({})
export class LoadSheddingModule {
  static forRoot(options: {
    inject?: (string | symbol | (abstract new (...args: never[]) => unknown))[];
    useFactory: (...deps: never[]) => LoadSheddingOptions;
  }): DynamicModule {
    return {
      module: LoadSheddingModule,
      global: true,
      providers: [
        { provide: LOAD_SHEDDING_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory },
        BacklogSampler,
        LoadSheddingGuard,
      ],
      exports: [BacklogSampler, LoadSheddingGuard],
    };
  }
}
