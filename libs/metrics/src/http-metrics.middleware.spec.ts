import { describe, expect, it } from '@jest/globals';
import { routeLabel, UNMATCHED_ROUTE } from './http-metrics.middleware.js';

describe('routeLabel', () => {
  it('when a route matched, then the label is its template, not the path with ids', () => {
    expect(routeLabel({ baseUrl: '', route: { path: '/orders/:id' } } as never)).toBe('/orders/:id');
  });

  it('when the route sits under a mounted router, then the mount path is kept in front', () => {
    expect(routeLabel({ baseUrl: '/api', route: { path: '/orders' } } as never)).toBe('/api/orders');
  });

  it('when no route matched, then every such path shares one label', () => {
    expect(routeLabel({ baseUrl: '', route: undefined } as never)).toBe(UNMATCHED_ROUTE);
  });
});
