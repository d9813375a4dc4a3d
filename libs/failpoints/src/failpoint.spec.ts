import { describe, expect, it } from '@jest/globals';
import { failpointFires, parseFailpoints } from './failpoint.js';

describe('failpoint arming', () => {
  it('when FAILPOINTS is empty, then nothing fires', () => {
    expect(failpointFires(parseFailpoints(''), 'inventory.after-commit-before-ack', 'anything')).toBe(false);
  });

  it('when a name is armed without a scope, then it fires at every call, with or without context', () => {
    const specs = parseFailpoints(' relay.after-publish-before-mark , inventory.after-commit-before-ack ');
    expect(failpointFires(specs, 'inventory.after-commit-before-ack')).toBe(true);
    expect(failpointFires(specs, 'inventory.after-commit-before-ack', 'order-1')).toBe(true);
    expect(failpointFires(specs, 'dispatcher.after-accepted-before-mark')).toBe(false);
  });

  it('when a name is armed with @scope, then it fires only where the context contains the scope', () => {
    const specs = parseFailpoints('inventory.after-commit-before-ack@3f1c-order');
    expect(failpointFires(specs, 'inventory.after-commit-before-ack', 'key 3f1c-order message 9')).toBe(true);
    expect(failpointFires(specs, 'inventory.after-commit-before-ack', 'someone-elses-order')).toBe(false);
    expect(failpointFires(specs, 'inventory.after-commit-before-ack')).toBe(false);
  });
});
