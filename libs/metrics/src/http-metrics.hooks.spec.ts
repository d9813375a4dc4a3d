import { describe, expect, it } from '@jest/globals';
import { routeLabel, UNMATCHED_ROUTE } from './http-metrics.hooks.js';

describe('routeLabel', () => {
  it('when a route matched, then the label is its template, not the path with ids', () => {
    expect(routeLabel({ is404: false, routeOptions: { url: '/orders/:id' } } as never)).toBe('/orders/:id');
  });

  it('when the route sits under a mounted router, then the mount path is kept in front', () => {
    expect(routeLabel({ is404: false, routeOptions: { url: '/api/orders' } } as never)).toBe('/api/orders');
  });

  it('when no route matched, then every such path shares one label', () => {
    expect(routeLabel({ is404: true, routeOptions: { url: undefined } } as never)).toBe(UNMATCHED_ROUTE);
  });
});
