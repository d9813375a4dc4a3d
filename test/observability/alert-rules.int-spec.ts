import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

/**
 * The Prometheus alert rules are code: `promtool` checks their syntax and runs their unit tests
 * (observability/prometheus/alerts.test.yml). promtool comes from Debian's `prometheus` package,
 * which `.ci/run` installs; without it this test fails and says how to get it, rather than
 * passing without having checked anything. An integration spec for that reason: the unit project
 * (`npm run test:unit`) needs nothing but Node.
 */
const directory = fileURLToPath(new URL('../../observability/prometheus/', import.meta.url));

function promtool(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('promtool', args, { cwd: directory, encoding: 'utf8', timeout: 60_000 });
  if (result.error) {
    throw new Error(`promtool could not run (${result.error.message}): install it with \`apt-get install -y prometheus\` (Debian's package ships promtool)`);
  }
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('Prometheus alert rules', () => {
  it('when promtool checks alerts.yml, then every rule is valid', () => {
    const { status, output } = promtool('check', 'rules', 'alerts.yml');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('when promtool runs the unit tests in alerts.test.yml, then each alert fires and resolves as specified', () => {
    const { status, output } = promtool('test', 'rules', 'alerts.test.yml');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('when promtool checks prometheus.yml of the compose profile, then the configuration is valid', () => {
    // --syntax-only: the rule file path in it is the container's (/etc/prometheus/alerts.yml).
    const { status, output } = promtool('check', 'config', '--syntax-only', 'prometheus.yml');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });
});
