// The GitHub workflow a fork gets on push: checked offline against GitHub's workflow schema
// (@action-validator/core), and for what it must do (run .ci/run beside Postgres 15 and Java 17,
// within CI's 90 minutes).
import { describe, expect, it } from '@jest/globals';
import { validateWorkflow } from '@action-validator/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findRepoRoot } from '@tools/local-stack';

const source = readFileSync(join(findRepoRoot(), '.github/workflows/ci.yml'), 'utf8');

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<
    string,
    {
      'runs-on': string;
      'timeout-minutes': number;
      services?: Record<string, { image: string; env?: Record<string, string>; ports?: string[] }>;
      steps: { uses?: string; run?: string; with?: Record<string, string> }[];
    }
  >;
}

describe('.github/workflows/ci.yml', () => {
  it('when validated against the workflow schema, then it has no error', () => {
    const state = validateWorkflow(source);
    expect(state.errors).toEqual([]);
  });

  it('when read, then it runs bash .ci/run on push and pull requests with Postgres 15, Java 17 and 90 minutes', () => {
    const workflow = parse(source) as Workflow;
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const [job] = Object.values(workflow.jobs);
    expect(job['runs-on']).toBe('ubuntu-latest');
    expect(job['timeout-minutes']).toBe(90);
    const postgres = Object.values(job.services ?? {}).find((service) => service.image.startsWith('postgres:'));
    expect(postgres).toMatchObject({ image: 'postgres:15', env: { POSTGRES_HOST_AUTH_METHOD: 'trust' }, ports: ['5432:5432'] });
    expect(job.steps.find((step) => step.uses?.startsWith('actions/setup-java@'))?.with?.['java-version']).toBe('17');
    expect(job.steps.at(-1)?.run).toBe('bash .ci/run');
  });
});
