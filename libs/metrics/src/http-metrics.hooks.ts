import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** Label for requests no route matched: scanners' random paths must not become label values. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route template a request matched (`/orders/:id`, any prefix included), or
 * {@link UNMATCHED_ROUTE}. Templates, not paths, keep the series count bounded: one series per
 * route and status, not one per order id.
 */
export function routeLabel(request: Pick<FastifyRequest, 'is404' | 'routeOptions'>): string {
  const url = request.is404 ? undefined : (request.routeOptions as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? url || '/' : UNMATCHED_ROUTE;
}

const startedAt = new WeakMap<FastifyRequest, (labels: Record<'method' | 'route' | 'status', string>) => void>();

/**
 * `http_request_duration_seconds{method,route,status}`, as two Fastify hooks: measured from the
 * request's arrival (`onRequest`) to the moment the response is flushed (`onResponse`), so time
 * spent in guards, pipes, interceptors, the idempotency transaction and exception filters counts,
 * and every status is recorded, 4xx, 5xx and 404s included. Registered once per registry.
 */
export function registerHttpMetrics(fastify: FastifyInstance, registry: Registry): void {
  const duration =
    (registry.getSingleMetric('http_request_duration_seconds') as Histogram<'method' | 'route' | 'status'> | undefined) ??
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration from arrival to response flush, by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  fastify.addHook('onRequest', (request, _reply, done) => {
    startedAt.set(request, duration.startTimer());
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    startedAt.get(request)?.({ method: request.method, route: routeLabel(request), status: String(reply.statusCode) });
    done();
  });
}
