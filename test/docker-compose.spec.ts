import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { envDefault } from '@app/config';
import { LocalDefaults, localEnvironment, migrateEntry, services } from '@tools/local-stack';
import {
  buildArg,
  dependencyConditions,
  environmentOf,
  hostBindings,
  portMappings,
  readComposeServices,
  withDefaults,
} from './support/compose-file.js';

// docker-compose.yml cannot be run in CI (no Docker engine), so it is checked against the things
// it must agree with: each service's config schema, the Dockerfile's APP argument, and the broker
// version of the Docker-free local Kafka (infra/kafka/pom.xml).
const repoFile = (path: string) => new URL(`../${path}`, import.meta.url);
const compose = readComposeServices(repoFile('docker-compose.yml'));

for (const service of services)
  describe(`docker-compose service ${service.name}`, () => {
    const name = service.name;
    const definition = compose[name] ?? {};
    const environment = environmentOf(definition);
    // The port the app will listen on with this environment; NaN when the value is malformed (the
    // parser test above names it), so the port test fails too instead of aborting the whole file.
    const expectedPort = (() => {
      const port = service.schema[service.portVariable].safeParse(environment[service.portVariable]);
      return port.success ? Number(port.data) : Number.NaN;
    })();

    it('exists in the compose file', () => {
      expect(Object.keys(compose)).toContain(name);
    });

    it('when the schema has no default for a variable, then compose sets it', () => {
      const required = Object.entries(service.schema)
        .filter(([, spec]) => envDefault(spec) === undefined)
        .map(([variable]) => variable);
      expect(required.filter((variable) => !(variable in environment))).toEqual([]);
    });

    it('when compose sets a variable, then the schema declares it (no typos that the app would ignore)', () => {
      expect(Object.keys(environment).filter((variable) => !(variable in service.schema))).toEqual([]);
    });

    it("when compose sets a variable, then the schema's own parser accepts the value", () => {
      const problems = Object.entries(environment).flatMap(([variable, value]) => {
        const result = service.schema[variable]?.safeParse(value);
        return result?.success === false ? result.error.issues.map((issue) => `${variable}=${value}: ${issue.message}`) : [];
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

    it('restarts after a crash unless stopped by hand', () => {
      expect(definition.restart).toBe('unless-stopped');
    });

    it(`starts only after its one-shot migration (${name}-migrate) completed successfully`, () => {
      expect(dependencyConditions(definition)[`${name}-migrate`]).toBe('service_completed_successfully');
    });

    describe(`${name}-migrate`, () => {
      const migrate = compose[`${name}-migrate`] ?? {};

      it("runs this service's migrate entry once from the same image and is never restarted", () => {
        expect([migrate.command ?? []].flat().join(' ')).toBe(`node ${migrateEntry(service)}`);
        expect(buildArg(migrate, 'APP')).toBe(name);
        expect(migrate.restart ?? 'no').toBe('no');
        expect(migrate.ports ?? []).toEqual([]);
      });

      it('migrates the database the service uses, after Postgres is healthy', () => {
        expect(environmentOf(migrate).DATABASE_URL).toBe(environment.DATABASE_URL);
        expect(environmentOf(migrate).DATABASE_NAME).toBe(environment.DATABASE_NAME);
        expect(dependencyConditions(migrate).postgres).toBe('service_healthy');
      });
    });

    it('checks its health at GET /health on the port it listens on', () => {
      const test = [definition.healthcheck?.test ?? []].flat().join(' ');
      expect(test).toMatch(/\/health(['"\s]|$)/); // exactly /health, not /healthz
      expect(test).toMatch(new RegExp(`process\\.env\\.${service.portVariable}\\b|:${expectedPort}/health`));
    });
  });

describe('docker-compose as a whole', () => {
  it('when the image starts a service, then it serves without migrating (migrations are the one-shot services)', () => {
    const dockerfile = readFileSync(repoFile('Dockerfile'), 'utf8');
    const cmd = /^CMD (.*)$/m.exec(dockerfile)?.[1] ?? '';
    expect(cmd).toContain('main.js');
    expect(cmd).not.toContain('migrate');
  });

  it('when any port is published, then it is bound to 127.0.0.1 only and its host port can be moved by a variable', () => {
    const offenders = Object.entries(compose).flatMap(([name, definition]) =>
      hostBindings(definition)
        .map((binding, index) => ({ ...binding, raw: JSON.stringify(definition.ports?.[index] ?? '') }))
        .filter((binding) => binding.hostIp !== '127.0.0.1' || !/\$\{[A-Z][A-Z0-9_]*_HOST_PORT:-\d+\}/.test(binding.raw))
        .map((binding) => `${name}: ${binding.raw}`),
    );
    expect(offenders).toEqual([]);
  });

  it("when the local tooling connects with its default DATABASE_URL, then compose's Postgres accepts it", () => {
    const postgres = environmentOf(compose.postgres ?? {});
    const local = new URL(LocalDefaults.DATABASE_URL);
    expect(local.username).toBe(postgres.POSTGRES_USER ?? 'postgres');
    // Either the server trusts local connections, or the local default sends its password.
    const accepted =
      postgres.POSTGRES_HOST_AUTH_METHOD === 'trust' || (local.password !== '' && local.password === postgres.POSTGRES_PASSWORD);
    expect({ accepted, hostPort: portMappings(compose.postgres ?? {})[0]?.published }).toEqual({
      accepted: true,
      hostPort: Number(local.port),
    });
  });

  it("when the local tooling uses its default KAFKA_BROKERS, then compose's Kafka answers there", () => {
    const [host, port] = LocalDefaults.KAFKA_BROKERS.split(':');
    const kafka = compose.kafka ?? {};
    expect(hostBindings(kafka).map(({ hostIp, published }) => ({ hostIp, published }))).toEqual([
      { hostIp: host, published: Number(port) },
    ]);
    expect(withDefaults(environmentOf(kafka).KAFKA_ADVERTISED_LISTENERS ?? '')).toContain(`HOST://${LocalDefaults.KAFKA_BROKERS}`);
  });

  it('when Kafka or Postgres restart, then their data survives on a named volume', () => {
    const kafka = compose.kafka ?? {};
    expect(kafka.volumes ?? []).toContain(`kafka-data:${environmentOf(kafka).KAFKA_LOG_DIRS}`);
    expect((compose.postgres?.volumes ?? []).map(String)).toContain('postgres-data:/var/lib/postgresql/data');
    expect(kafka.restart).toBe('unless-stopped');
    expect(compose.postgres?.restart).toBe('unless-stopped');
  });

  it('when the observability profile is enabled, then it adds Prometheus, Grafana, Jaeger and Kafka UI, with files that exist', () => {
    const profile = Object.entries(compose)
      .filter(([, definition]) => definition.profiles?.includes('observability'))
      .map(([name]) => name);
    expect(profile.sort()).toEqual(['grafana', 'jaeger', 'kafka-ui', 'prometheus']);
    const mounts = profile.flatMap((name) => (compose[name]?.volumes ?? []).map(String)).filter((volume) => volume.startsWith('./'));
    expect(mounts.length).toBeGreaterThanOrEqual(4);
    expect(mounts.filter((volume) => !existsSync(repoFile(volume.split(':')[0].slice(2))))).toEqual([]);
  });
});

describe('docker-compose kafka', () => {
  it('when infra/kafka/pom.xml pins a Kafka version, then compose runs apache/kafka with that same tag', () => {
    const pomVersion = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(repoFile('infra/kafka/pom.xml'), 'utf8'))?.[1];
    expect(pomVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(compose.kafka?.image).toBe(`apache/kafka:${pomVersion}`);
  });
});

describe('docker-compose cluster profile', () => {
  const nodes = Object.entries(compose).filter(([, definition]) => definition.profiles?.includes('cluster'));

  it('when the cluster profile is enabled, then it runs three KRaft nodes of the same image as kafka, each its own id, data volume and quorum member', () => {
    expect(nodes.map(([name]) => name).sort()).toEqual(['kafka-1', 'kafka-2', 'kafka-3']);
    for (const [name, definition] of nodes) {
      const environment = environmentOf(definition);
      expect({ name, image: definition.image }).toEqual({ name, image: compose.kafka?.image });
      expect(environment.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe('1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093');
      expect(name).toBe(`kafka-${environment.KAFKA_NODE_ID}`);
      expect(definition.volumes ?? []).toContain(`${name}-data:${environment.KAFKA_LOG_DIRS}`);
    }
    expect(new Set(nodes.map(([, definition]) => environmentOf(definition).CLUSTER_ID)).size).toBe(1);
  });

  it('when a node is lost, then acknowledged writes survive: replication factor 3, min in-sync replicas 2, internal topics replicated, unclean election off', () => {
    for (const [, definition] of nodes) {
      expect(environmentOf(definition)).toMatchObject({
        KAFKA_DEFAULT_REPLICATION_FACTOR: '3',
        KAFKA_MIN_INSYNC_REPLICAS: '2',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '3',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '3',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '2',
        KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE: 'false',
      });
    }
  });

  it('when the local tooling runs with KAFKA_LOCAL_NODES=3, then the cluster answers at the brokers it looks for, on 127.0.0.1', () => {
    const expected = localEnvironment({ KAFKA_LOCAL_NODES: '3' }).KAFKA_BROKERS!.split(',');
    const published = nodes
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, definition]) => {
        const [binding] = hostBindings(definition);
        return `${binding.hostIp}:${binding.published}`;
      });
    expect(published).toEqual(expected);
    for (const [, definition] of nodes) {
      const [binding] = hostBindings(definition);
      expect(withDefaults(environmentOf(definition).KAFKA_ADVERTISED_LISTENERS ?? '')).toContain(`HOST://127.0.0.1:${binding.published}`);
    }
  });
});

describe('docker-compose observability tools (issue 16: no writable UI, no default password)', () => {
  it('when Kafka UI runs, then it is read-only: nobody on its port can produce, delete topics or move offsets', () => {
    expect(environmentOf(compose['kafka-ui'] ?? {}).KAFKA_CLUSTERS_0_READONLY).toBe('true');
  });

  it("when Grafana runs, then its admin password is the operator's GRAFANA_ADMIN_PASSWORD, never a value in the file", () => {
    const grafana = environmentOf(compose.grafana ?? {});
    expect(grafana.GF_SECURITY_ADMIN_PASSWORD).toMatch(/^\$\{GRAFANA_ADMIN_PASSWORD(:?-)?\}$/);
    expect(Object.keys(grafana).filter((name) => /^GF_SECURITY_ADMIN_(USER|PASSWORD__FILE)$/.test(name))).toEqual([]);
  });

  // The entrypoint is run for real by sh, with the image's /run.sh replaced by a marker: without
  // the variable Grafana would start with admin/admin.
  const grafanaEntrypoint = (password: string) => {
    const [shell, flag, script] = [compose.grafana?.entrypoint ?? []].flat();
    expect([shell, flag]).toEqual(['sh', '-c']);
    const runnable = script.replaceAll('$$', '$').replace('exec /run.sh', 'echo grafana-started');
    return spawnSync(shell, [flag, runnable], { env: { PATH: process.env.PATH, GF_SECURITY_ADMIN_PASSWORD: password }, encoding: 'utf8' });
  };

  it('when GRAFANA_ADMIN_PASSWORD is unset, then Grafana refuses to start and says which variable to set', () => {
    const run = grafanaEntrypoint('');
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toContain('GRAFANA_ADMIN_PASSWORD');
  });

  it('when GRAFANA_ADMIN_PASSWORD is set, then Grafana starts', () => {
    const run = grafanaEntrypoint('s3cret-from-the-operator');
    expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'grafana-started' });
  });
});
