import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Histogram, Registry } from 'prom-client';

/** Label for requests no route matched: scanners' random paths must not become label values. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route template a request matched (`/orders/:id`), or {@link UNMATCHED_ROUTE}. Templates, not
 * paths, keep the series count bounded: one series per route and status, not one per order id.
 */
export function routeLabel(request: Pick<Request, 'baseUrl' | 'route'>): string {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${request.baseUrl ?? ''}${path}` || '/' : UNMATCHED_ROUTE;
}

/**
 * `http_request_duration_seconds{method,route,status}`: measured from the first middleware to the
 * moment the response is flushed (`finish`), so time spent in pipes, interceptors, the idempotency
 * transaction and exception filters counts, and every status is recorded, 4xx and 5xx included.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  private readonly duration: Histogram<'method' | 'route' | 'status'>;

  constructor(@Inject(Registry) registry: Registry) {
    // Registered once per registry: Nest builds one middleware instance per app.
    this.duration =
      (registry.getSingleMetric('http_request_duration_seconds') as Histogram<'method' | 'route' | 'status'> | undefined) ??
      new Histogram({
        name: 'http_request_duration_seconds',
        help: 'HTTP request duration from arrival to response flush, by route template and status',
        labelNames: ['method', 'route', 'status'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      });
  }

  use(request: Request, response: Response, next: NextFunction): void {
    const stop = this.duration.startTimer();
    response.once('finish', () => stop({ method: request.method, route: routeLabel(request), status: String(response.statusCode) }));
    next();
  }
}
