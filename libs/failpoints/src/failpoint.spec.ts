import { describe, expect, it } from '@jest/globals';
import { defineFailpoints, failpointAction, failpointFires, failpointsFromEnv, parseFailpoints } from './failpoint.js';

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

describe('failpoint actions', () => {
  it('when an entry has no action, then it kills', () => {
    expect(failpointAction(parseFailpoints('relay.after-publish-before-mark'), 'relay.after-publish-before-mark')).toEqual({
      kind: 'kill',
    });
  });

  it('when an entry ends in =sleep(<ms>), then it sleeps that long, scoped or not', () => {
    const specs = parseFailpoints(
      'loyalty.after-commit-before-response@key-1 executed=sleep(2500), orders.after-commit-before-ack=sleep(10)',
    );
    expect(failpointAction(specs, 'loyalty.after-commit-before-response', 'key-1 executed')).toEqual({ kind: 'sleep', ms: 2500 });
    expect(failpointAction(specs, 'loyalty.after-commit-before-response', 'key-1 replayed')).toBeUndefined();
    expect(failpointAction(specs, 'orders.after-commit-before-ack', 'anything')).toEqual({ kind: 'sleep', ms: 10 });
  });

  it('when an action is misspelt, then parsing throws instead of arming something else', () => {
    expect(() => parseFailpoints('relay.after-publish-before-mark=slep(100)')).toThrow(/kill or sleep/);
    expect(() => parseFailpoints('relay.after-publish-before-mark=sleep(abc)')).toThrow(/kill or sleep/);
  });
});

describe('failpoint declarations', () => {
  it('when an owner declares its windows, then each name is <owner>.<window>, typed as that literal', () => {
    const declared = defineFailpoints('example-owner', { afterWriteBeforeAck: 'after-write-before-ack' });
    const name: 'example-owner.after-write-before-ack' = declared.afterWriteBeforeAck;
    expect(name).toBe('example-owner.after-write-before-ack');
    expect(Object.isFrozen(declared)).toBe(true);
    expect(failpointFires(parseFailpoints(`${declared.afterWriteBeforeAck}@order-1`), declared.afterWriteBeforeAck, 'order-1')).toBe(true);
  });

  it('when two owners declare one name, then the second declaration throws naming it', () => {
    defineFailpoints('example-twice', { one: 'after-x' });
    expect(() => defineFailpoints('example-twice', { other: 'after-x' })).toThrow('failpoint example-twice.after-x is declared twice');
  });
});

describe('failpoints only in a process started for tests (a production process must not be killable by a variable)', () => {
  const FAILPOINTS = 'relay.after-publish-before-mark';

  it('when FAILPOINTS is set with FAILPOINTS_ENABLED=true and NODE_ENV=test, then it is armed', () => {
    const specs = failpointsFromEnv({ FAILPOINTS, FAILPOINTS_ENABLED: 'true', NODE_ENV: 'test' });
    expect(failpointFires(specs, 'relay.after-publish-before-mark')).toBe(true);
  });

  it('when FAILPOINTS is set without FAILPOINTS_ENABLED, then it is refused, naming the variable', () => {
    expect(() => failpointsFromEnv({ FAILPOINTS, NODE_ENV: 'test' })).toThrow(
      /need FAILPOINTS_ENABLED=true; unset FAILPOINTS outside tests/,
    );
  });

  it('when FAILPOINTS is enabled but NODE_ENV is not test, then it is refused, naming NODE_ENV', () => {
    expect(() => failpointsFromEnv({ FAILPOINTS, FAILPOINTS_ENABLED: 'true', NODE_ENV: 'production' })).toThrow(/need NODE_ENV=test;/);
    expect(() => failpointsFromEnv({ FAILPOINTS })).toThrow(/need FAILPOINTS_ENABLED=true and NODE_ENV=test/);
  });

  it('when FAILPOINTS is unset or blank, then nothing is armed and nothing else is required', () => {
    expect(failpointsFromEnv({}).size).toBe(0);
    expect(failpointsFromEnv({ FAILPOINTS: '  ', NODE_ENV: 'production' }).size).toBe(0);
  });
});
