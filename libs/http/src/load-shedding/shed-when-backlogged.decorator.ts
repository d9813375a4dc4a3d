import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { problemResponse } from '../api-errors.decorator.js';
import { LoadSheddingGuard } from './load-shedding.guard.js';

/**
 * Marks a route that starts new work for the loop behind it (`POST /orders`): refused with 503
 * `SERVER.OVERLOADED` and `Retry-After` while the backlog is past its bounds. Needs
 * `LoadSheddingModule.forRoot` in the app. Reads and cancels are not marked: they add no backlog.
 */
export function ShedWhenBacklogged(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(LoadSheddingGuard),
    ApiResponse({
      status: 503,
      ...problemResponse(
        503,
        'SERVER.OVERLOADED: the backlog behind this API is past its bounds (LOAD_SHED_*), or SERVER.UNAVAILABLE: no database connection ' +
          'within DATABASE_CONNECT_TIMEOUT_MS; either way nothing was done, send the same request again after `Retry-After` seconds',
      ),
    }),
  );
}
