import { type DynamicModule, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { BacklogSampler, LOAD_SHEDDING_OPTIONS, type LoadSheddingOptions } from './backlog-sampler.js';
import { loadSheddingHook } from './load-shedding.hook.js';

/**
 * The backlog sampler and the door of `@ShedWhenBacklogged()` routes (a Fastify `onRequest` hook).
 * Needs `MetricsModule` (the prom-client `Registry`).
 */
@Module({})
export class LoadSheddingModule implements OnModuleInit {
  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(BacklogSampler) private readonly sampler: BacklogSampler,
  ) {}

  static forRoot(options: {
    inject?: (string | symbol | (abstract new (...args: never[]) => unknown))[];
    useFactory: (...deps: never[]) => LoadSheddingOptions;
  }): DynamicModule {
    return {
      module: LoadSheddingModule,
      providers: [{ provide: LOAD_SHEDDING_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory }, BacklogSampler],
      exports: [BacklogSampler],
    };
  }

  onModuleInit(): void {
    // Module init runs before the server is ready, which is when Fastify attaches root hooks to
    // every route. Registered after configureHttpApp's hooks, so a 503 carries the security headers.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onRequest', loadSheddingHook(this.sampler));
  }
}
