import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError } from '@libs/config';
import { type StartUpDependency, waitForDependencies } from './wait-for-dependencies.js';

/** A dependency whose first `failures` checks throw `error`, then answers. */
function dependency(name: string, failures: number, error = new Error('connect ECONNREFUSED')): StartUpDependency & { tries: number } {
  const dep = {
    name,
    tries: 0,
    check: async () => {
      dep.tries += 1;
      if (dep.tries <= failures) throw error;
    },
    refusal: (caught: unknown) => ((caught as Error).message === 'wrong password' ? `${name.toUpperCase()}_PASSWORD: refused` : undefined),
  };
  return dep;
}

describe('waitForDependencies', () => {
  it('when a dependency fails for a while, then it is tried again until it answers, and what is awaited is reported and logged', async () => {
    const database = dependency('database', 0);
    const kafka = dependency('kafka', 4);
    const waiting: (readonly string[])[] = [];
    const lines: string[] = [];
    await waitForDependencies([database, kafka], {
      onWaiting: (names) => waiting.push(names),
      log: (line) => lines.push(line),
      retryMs: 10,
      logIntervalMs: 15,
    });
    expect(kafka.tries).toBe(5);
    expect(waiting[0]).toEqual(['database', 'kafka']);
    expect(waiting).toContainEqual(['kafka']);
    expect(waiting.at(-1)).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^starting: waiting for kafka \(connect ECONNREFUSED\) since \d+ s$/);
  });

  it('when a dependency refuses its credentials, then the wait ends at once with a configuration error naming the variable', async () => {
    const kafka = dependency('kafka', 100, new Error('wrong password'));
    const error = await waitForDependencies([dependency('database', 0), kafka], {
      onWaiting: () => undefined,
      log: () => undefined,
      retryMs: 10,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigValidationError);
    expect((error as ConfigValidationError).problems).toEqual(['KAFKA_PASSWORD: refused']);
    expect(kafka.tries).toBe(1);
  });

  it('when a check throws a configuration error (a setting the broker contradicts), then the wait ends with that error as it is', async () => {
    const contradicted = new ConfigValidationError(['INBOX_RETENTION_MS=60000 is shorter than the retention of topic t']);
    const kafka = dependency('kafka', 100, contradicted);
    const error = await waitForDependencies([kafka], { onWaiting: () => undefined, log: () => undefined, retryMs: 10 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBe(contradicted);
    expect(kafka.tries).toBe(1);
  });
});
