import { type DynamicModule, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { type Histogram, Registry } from 'prom-client';
import { answerBeforeRouting } from '../before-routing.js';
import { BacklogSampler, LOAD_SHEDDING_OPTIONS, type LoadSheddingOptions } from './backlog-sampler.js';
import { FrontDoor, type FrontDoorRefusal } from './front-door.js';
import { loadSheddingHook } from './load-shedding.hook.js';

/**
 * The request metric of every answer (libs/metrics registers it with its Fastify hooks), named here
 * because the front door's refusals never reach those hooks; the load-shedding e2e test checks that
 * they are counted in it. A library cannot import libs/metrics from here (metrics needs auth, auth
 * needs http).
 */
const HTTP_REQUEST_DURATION = 'http_request_duration_seconds';

/**
 * The backlog sampler and the door of `@ShedWhenBacklogged()` routes: a Fastify `onRequest` hook,
 * and in front of Fastify the {@link FrontDoor} for the routes with a fixed path, when the server
 * came from `httpServerOptions`. Needs `MetricsModule` (the prom-client `Registry`).
 */
@Module({})
export class LoadSheddingModule implements OnModuleInit {
  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(BacklogSampler) private readonly sampler: BacklogSampler,
    @Inject(Registry) private readonly registry: Registry,
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
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.server.once('listening', () => this.sampler.serverListening());
    const frontDoor = new FrontDoor(this.sampler, (refusal) => this.recordRefusal(refusal));
    // Module init runs before the server is ready, which is when Fastify attaches root hooks to
    // every route. Registered after configureHttpApp's hooks, so a 503 carries the security headers.
    fastify.addHook(
      'onRequest',
      loadSheddingHook(this.sampler, answerBeforeRouting(fastify.server, frontDoor.answer) ? frontDoor : undefined),
    );
  }

  private recordRefusal({ method, route, seconds }: FrontDoorRefusal): void {
    const duration = this.registry.getSingleMetric(HTTP_REQUEST_DURATION) as Histogram<'method' | 'route' | 'status'> | undefined;
    duration?.observe({ method, route, status: '503' }, seconds);
  }
}
