import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { APP_LOAD_ORDER, moduleLoadOrder } from './module-load-order.js';

const dependencies = Object.keys(
  (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies,
);

describe('module-memory load order', () => {
  it('names only packages that are dependencies of package.json, and measures every dependency exactly once', () => {
    const order = moduleLoadOrder(dependencies);

    expect(APP_LOAD_ORDER.filter((name) => !dependencies.includes(name))).toEqual([]);
    expect([...order].sort()).toEqual([...dependencies].sort());
    expect(order.slice(0, APP_LOAD_ORDER.length)).toEqual(APP_LOAD_ORDER);
  });

  it('when a listed package is no dependency any more, then it refuses, naming it', () => {
    expect(() => moduleLoadOrder(dependencies.filter((name) => name !== 'kafkajs'))).toThrow(/not dependencies in package.json: kafkajs/);
  });
});
