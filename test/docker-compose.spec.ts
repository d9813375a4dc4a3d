import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { services } from '../scripts/service-catalog.js';
import { buildArg, dependencyConditions, environmentOf, portMappings, readComposeServices } from './support/compose-file.js';

// docker-compose.yml cannot be run in CI (no Docker engine), so it is checked against the things
// it must agree with: each service's config schema, the Dockerfile's APP argument, and the broker
// version of the Docker-free local Kafka (infra/kafka/pom.xml).
const repoFile = (path: string) => new URL(`../${path}`, import.meta.url);
const compose = readComposeServices(repoFile('docker-compose.yml'));

for (const service of services) describe(`docker-compose service ${service.name}`, () => {
  const name = service.name;
  const definition = compose[name] ?? {};
  const environment = environmentOf(definition);
  // The port the app will listen on with this environment; NaN when the value is malformed (the
  // parser test above names it), so the port test fails too instead of aborting the whole file.
  const expectedPort = (() => {
    const spec = service.schema[service.portVariable];
    const raw = environment[service.portVariable];
    try {
      return Number(raw === undefined ? spec.default : spec.parse(raw));
    } catch {
      return Number.NaN;
    }
  })();

  it('exists in the compose file', () => {
    expect(Object.keys(compose)).toContain(name);
  });

  it('when the schema has no default for a variable, then compose sets it', () => {
    const required = Object.entries(service.schema).filter(([, spec]) => spec.default === undefined).map(([variable]) => variable);
    expect(required.filter((variable) => !(variable in environment))).toEqual([]);
  });

  it('when compose sets a variable, then the schema declares it (no typos that the app would ignore)', () => {
    expect(Object.keys(environment).filter((variable) => !(variable in service.schema))).toEqual([]);
  });

  it("when compose sets a variable, then the schema's own parser accepts the value", () => {
    const problems = Object.entries(environment).flatMap(([variable, value]) => {
      const spec = service.schema[variable];
      if (!spec) return [];
      try {
        spec.parse(value);
        return [];
      } catch (error) {
        return [`${variable}=${value}: ${(error as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });

  it(`publishes the port the app listens on (${service.portVariable}) on the same host port`, () => {
    expect(portMappings(definition)).toEqual([{ published: expectedPort, target: expectedPort }]);
  });

  it('waits for healthy infrastructure before starting', () => {
    const conditions = dependencyConditions(definition);
    expect(Object.fromEntries(service.needs.map((need) => [need, conditions[need]]))).toEqual(
      Object.fromEntries(service.needs.map((need) => [need, 'service_healthy'])),
    );
  });

  it('builds the shared Dockerfile with APP set to this service', () => {
    expect(buildArg(definition, 'APP')).toBe(name);
  });

  it('checks its health at GET /health on the port it listens on', () => {
    const test = [definition.healthcheck?.test ?? []].flat().join(' ');
    expect(test).toMatch(/\/health(['"\s]|$)/); // exactly /health, not /healthz
    expect(test).toMatch(new RegExp(`process\\.env\\.${service.portVariable}\\b|:${expectedPort}/health`));
  });
});

describe('docker-compose kafka', () => {
  it('when infra/kafka/pom.xml pins a Kafka version, then compose runs apache/kafka with that same tag', () => {
    const pomVersion = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(repoFile('infra/kafka/pom.xml'), 'utf8'))?.[1];
    expect(pomVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(compose.kafka?.image).toBe(`apache/kafka:${pomVersion}`);
  });
});
