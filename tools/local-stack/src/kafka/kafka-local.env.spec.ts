import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { findRepoRoot } from '../environment/repo-root.js';
import { kafkaLocalEnv } from './kafka-local.env.js';

/** The names the script's header lists under "Environment:", in order. */
function headerVariables(): string[] {
  const script = readFileSync(join(findRepoRoot(), 'scripts/kafka-local.sh'), 'utf8');
  const header = script.slice(script.indexOf('# Environment:'), script.indexOf('# Exit codes:'));
  return [...header.matchAll(/^# {3}([A-Z][A-Z0-9_]+)\s/gm)].map(([, name]) => name);
}

describe('kafkaLocalEnv', () => {
  it('when scripts/kafka-local.sh documents a variable in its header, then kafkaLocalEnv declares it, and nothing more', () => {
    expect(Object.keys(kafkaLocalEnv).sort()).toEqual(headerVariables().sort());
  });

  it('when the script falls back to a number and the declaration has a fixed default, then both are the same', () => {
    const script = readFileSync(join(findRepoRoot(), 'scripts/kafka-local.sh'), 'utf8');
    const declared = (name: string): unknown => kafkaLocalEnv[name as keyof typeof kafkaLocalEnv].parse(undefined);
    const defaults = [...script.matchAll(/"\$\{(KAFKA_LOCAL_[A-Z_]+):-(\d+)\}"/g)]
      .filter(([, name]) => declared(name) !== '')
      .map(([, name, value]) => ({ name, value: Number(value) }));
    expect(defaults.length).toBeGreaterThan(0);
    expect(defaults.map(({ name }) => ({ name, value: declared(name) }))).toEqual(defaults);
  });
});
