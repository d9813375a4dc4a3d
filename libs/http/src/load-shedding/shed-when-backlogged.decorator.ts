import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiResponse } from '@nestjs/swagger';
import { problemResponse } from '../api-errors.decorator.js';
import { SHED_ROUTE_CONFIG } from './load-shedding.hook.js';

/**
 * Marks a route that starts new work for the loop behind it (`POST /orders`): refused with 503
 * `SERVER.OVERLOADED` and `Retry-After` while too many requests are in flight or the backlog is
 * past its bounds. A Fastify route config read by the `onRequest` hook of `LoadSheddingModule`
 * (a guard would run after the body was parsed and the token checked). Reads and cancels are not
 * marked: they add no backlog.
 */
export function ShedWhenBacklogged(): MethodDecorator {
  return applyDecorators(
    RouteConfig({ [SHED_ROUTE_CONFIG]: true }),
    ApiResponse({
      status: 503,
      ...problemResponse(
        503,
        'SERVER.OVERLOADED: too many requests in flight or the backlog behind this API past its bounds (LOAD_SHED_*), or SERVER.UNAVAILABLE: no database connection ' +
          'within DATABASE_CONNECT_TIMEOUT_MS; either way nothing was done, send the same request again after `Retry-After` seconds',
      ),
    }),
  );
}
