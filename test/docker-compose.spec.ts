import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { envDefault, loadConfig } from '@libs/config';
import { inventoryStartChecks } from '@apps/inventory';
import { loyaltyStartChecks } from '@apps/loyalty';
import { ordersStartChecks } from '@apps/orders';
import {
  APP_NODE_FLAGS,
  APP_PROCESS_ENV,
  composeEnv,
  KAFKA_USERS,
  LocalDefaults,
  kafkaPrincipalOf,
  localEnvironment,
  migrateEntry,
  services,
} from '@tools/local-stack';
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
/** The Dockerfile's last stage: the runtime one, so a plain `docker build` builds an app. */
const runtimeStage = () => {
  const dockerfile = readFileSync(repoFile('Dockerfile'), 'utf8');
  return dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
};
const compose = readComposeServices(repoFile('docker-compose.yml'));
/** What each app checks before its first connection (NODE_ENV=production refusals included). */
const startChecks: Record<string, (config: never) => string[]> = {
  orders: ordersStartChecks,
  inventory: inventoryStartChecks,
  loyalty: loyaltyStartChecks,
};

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

    it('when the image (NODE_ENV=production) starts with this environment, then its start checks pass: each laptop setting is allowed on purpose here', () => {
      const resolved = Object.fromEntries(Object.entries(environment).map(([variable, value]) => [variable, withDefaults(String(value))]));
      const config = loadConfig(service.schema, { ...resolved, NODE_ENV: 'production' });
      const warnings = startChecks[name](config as never);
      expect(warnings.every((warning) => /allowed in production by [A-Z_]+=true$/.test(warning))).toBe(true);
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
    const runtime = runtimeStage();
    expect(runtime).toMatch(/ AS runtime\n/);
    const cmd = /^CMD (.*)$/m.exec(runtime)?.[1] ?? '';
    expect(cmd).toContain('main.js');
    expect(cmd).not.toContain('migrate');
  });

  it('when the image starts a service, then node runs with the flags every app runs with locally and in tests', () => {
    const runtime = runtimeStage();
    const nodeOptions = (/NODE_OPTIONS="([^"]*)"/.exec(runtime)?.[1] ?? '').split(/\s+/);
    expect(APP_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(APP_NODE_FLAGS.filter((flag) => !nodeOptions.includes(flag))).toEqual([]);
  });

  it('when the image starts a service, then it runs with the environment every app runs with locally and in tests', () => {
    const runtime = runtimeStage();
    const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)?.[1] ?? '';
    const set = new Map(
      [...env.matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g)].map(([, name, value]) => [name, value.replace(/^"|"$/g, '')]),
    );
    expect(Object.keys(APP_PROCESS_ENV).length).toBeGreaterThan(0);
    expect(Object.entries(APP_PROCESS_ENV).filter(([name, value]) => set.get(name) !== value)).toEqual([]);
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
    expect(copiedFiles(profile).length).toBeGreaterThanOrEqual(4);
    expect(copiedFiles(profile).filter((path) => !existsSync(repoFile(path)))).toEqual([]);
  });

  it('when a service runs, then it mounts no host path: what it needs is built into its image or kept in a named volume', () => {
    const bindMounts = Object.entries(compose).flatMap(([name, definition]) =>
      (definition.volumes ?? [])
        .filter((volume) => (typeof volume === 'string' ? /^[./~$]/.test(volume) : volume.type === 'bind'))
        .map((volume) => `${name}: ${JSON.stringify(volume)}`),
    );
    expect(bindMounts).toEqual([]);
  });

  it('when an image copies files of this checkout, then they exist', () => {
    const names = Object.keys(compose);
    expect(copiedFiles(names).filter((path) => !existsSync(repoFile(path)))).toEqual([]);
  });

  it('when any service waits for another to be healthy, then that one has a healthcheck', () => {
    const waitedOn = new Set(
      Object.values(compose).flatMap((definition) =>
        Object.entries(dependencyConditions(definition))
          .filter(([, condition]) => condition === 'service_healthy')
          .map(([name]) => name),
      ),
    );
    expect([...waitedOn].filter((name) => !compose[name]?.healthcheck?.test)).toEqual([]);
  });

  it('when the host interpolates a variable into the file, then composeEnv declares it with the same default, or an app schema does', () => {
    const text = readFileSync(repoFile('docker-compose.yml'), 'utf8');
    const appVariables = new Set(services.flatMap((service) => Object.keys(service.schema)));
    const interpolated = [...text.matchAll(/(?<!\$)\$\{([A-Z][A-Z0-9_]*):-([^}]*)\}/g)].map(([, name, value]) => ({ name, value }));
    expect(interpolated.length).toBeGreaterThan(0);
    expect(interpolated.filter(({ name }) => !(name in composeEnv) && !appVariables.has(name))).toEqual([]);
    const own = interpolated.filter(({ name }) => name in composeEnv);
    expect(own.map(({ name }) => ({ name, value: String(envDefault(composeEnv[name])) }))).toEqual(own);
  });
});

describe('docker-compose dev-issuer (one command: nothing built on the host first)', () => {
  const issuer = compose['dev-issuer'];

  it('when the stack is built, then the issuer is the Dockerfile dev-issuer target, which runs scripts/dev-issuer.ts', () => {
    expect(typeof issuer?.build === 'object' ? issuer.build.target : undefined).toBe('dev-issuer');
    const dockerfile = readFileSync(repoFile('Dockerfile'), 'utf8');
    const stage = dockerfile.slice(dockerfile.indexOf(' AS dev-issuer'), dockerfile.indexOf(' AS runtime'));
    expect(stage).toContain('CMD ["node", "dist/scripts/dev-issuer.js"]');
    expect(stage).toContain('dist/scripts/dev-issuer.js');
    expect(existsSync(repoFile('scripts/dev-issuer.ts'))).toBe(true);
  });

  it('when its health is checked, then the check fetches the JWKS on the port it listens on', () => {
    const test = [issuer?.healthcheck?.test ?? []].flat().join(' ');
    expect(test).toContain('/.well-known/jwks.json');
    expect(test).toContain('process.env.DEV_ISSUER_PORT');
    expect(environmentOf(issuer).DEV_ISSUER_HOST).toBe('0.0.0.0');
  });

  it.each(services.map((service) => service.name))(
    'when %s starts, then the issuer is healthy (it verifies tokens against its JWKS)',
    (name) => {
      expect(dependencyConditions(compose[name])['dev-issuer']).toBe('service_healthy');
      expect(withDefaults(environmentOf(compose[name]).AUTH_JWKS_URL ?? '')).toBe(
        `http://dev-issuer:${environmentOf(issuer).DEV_ISSUER_PORT}/.well-known/jwks.json`,
      );
    },
  );

  it('when the issuer restarts, then its key pair survives on a named volume (tokens it issued stay valid)', () => {
    expect(issuer?.volumes).toEqual([`dev-issuer-state:${dirname(environmentOf(issuer).DEV_ISSUER_FILE ?? '')}`]);
  });
});

/** Files of this checkout that the services' inline Dockerfiles COPY in. */
function copiedFiles(names: string[]): string[] {
  return names.flatMap((name) => {
    const build = compose[name]?.build;
    const inline = typeof build === 'object' ? (build.dockerfile_inline ?? '') : '';
    return [...inline.matchAll(/^\s*COPY\s+(.+)$/gm)].flatMap(([, args]) => args.trim().split(/\s+/).slice(0, -1));
  });
}

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

describe('docker-compose observability tools (no writable UI, no default password)', () => {
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

describe('docker-compose Kafka security (every listener authenticates, nothing allowed without an ACL)', () => {
  const brokers = Object.entries(compose).filter(([name]) => /^kafka(-\d+)?$/.test(name));
  /** `${NAME}` or `${NAME:-default}`: the value comes from the operator's environment, not the file. */
  const interpolates = (name: string) => new RegExp(`^\\$\\{${name}(:?-[^}]*)?\\}$`);
  const passwordVariable = (user: string) => `KAFKA_${user.toUpperCase()}_PASSWORD`;
  const protocols = (environment: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      (environment.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP ?? '').split(',').map((entry) => entry.split(':') as [string, string]),
    );
  const listenerNames = (environment: Record<string, string>) =>
    (environment.KAFKA_LISTENERS ?? '').split(',').map((listener) => listener.split('://')[0]);

  it('when the brokers are listed, then they are kafka and the three cluster nodes', () => {
    expect(brokers.map(([name]) => name).sort()).toEqual(['kafka', 'kafka-1', 'kafka-2', 'kafka-3']);
  });

  it('when any broker is read, then every listener is SASL (no PLAINTEXT or SSL without authentication)', () => {
    for (const [name, definition] of brokers) {
      const environment = environmentOf(definition);
      const map = protocols(environment);
      expect({ name, listeners: listenerNames(environment).sort() }).toEqual({ name, listeners: Object.keys(map).sort() });
      expect({ name, unauthenticated: Object.entries(map).filter(([, protocol]) => !/^SASL_(PLAINTEXT|SSL)$/.test(protocol)) }).toEqual({
        name,
        unauthenticated: [],
      });
    }
  });

  it('when the nodes talk to each other, then they authenticate as `broker`: SCRAM-SHA-512 between brokers, PLAIN on the controller listener', () => {
    for (const [name, definition] of brokers) {
      const environment = environmentOf(definition);
      const interBroker = environment.KAFKA_INTER_BROKER_LISTENER_NAME ?? '';
      expect({
        name,
        enabled: environment.KAFKA_SASL_ENABLED_MECHANISMS,
        interBroker: environment.KAFKA_SASL_MECHANISM_INTER_BROKER_PROTOCOL,
      }).toEqual({
        name,
        enabled: 'SCRAM-SHA-512',
        interBroker: 'SCRAM-SHA-512',
      });
      expect(environment[`KAFKA_LISTENER_NAME_${interBroker}_SCRAM___SHA___512_SASL_JAAS_CONFIG`]).toMatch(
        /ScramLoginModule required username="broker" password="\$\{KAFKA_BROKER_PASSWORD(:?-[^}]*)?\}";$/,
      );
      expect(environment.KAFKA_CONTROLLER_LISTENER_NAMES).toBe('CONTROLLER');
      expect(environment.KAFKA_SASL_MECHANISM_CONTROLLER_PROTOCOL).toBe('PLAIN');
      expect(environment.KAFKA_LISTENER_NAME_CONTROLLER_SASL_ENABLED_MECHANISMS).toBe('PLAIN');
      expect(environment.KAFKA_LISTENER_NAME_CONTROLLER_PLAIN_SASL_JAAS_CONFIG).toMatch(
        /PlainLoginModule required username="broker" password="\$\{KAFKA_BROKER_PASSWORD(:?-[^}]*)?\}" user_broker="\$\{KAFKA_BROKER_PASSWORD(:?-[^}]*)?\}";$/,
      );
    }
  });

  it('when a principal has no ACL, then it may do nothing: StandardAuthorizer, allow.everyone.if.no.acl.found=false, super users broker and admin', () => {
    for (const [name, definition] of brokers) {
      expect({ name, ...environmentOf(definition) }).toMatchObject({
        name,
        KAFKA_AUTHORIZER_CLASS_NAME: 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
        KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'false',
        KAFKA_SUPER_USERS: 'User:broker;User:admin',
      });
    }
  });

  it("when a broker is formatted, then its SCRAM users are KAFKA_USERS, each password the operator's KAFKA_<USER>_PASSWORD", () => {
    for (const [name, definition] of brokers) {
      const environment = environmentOf(definition);
      expect({ name, users: (environment.SCRAM_USERS ?? '').split(' ') }).toEqual({ name, users: [...KAFKA_USERS] });
      for (const user of KAFKA_USERS) {
        expect({ name, user, password: environment[`SCRAM_PASSWORD_${user.toUpperCase()}`] }).toEqual({
          name,
          user,
          password: expect.stringMatching(interpolates(passwordVariable(user))),
        });
      }
      expect({ name, entrypoint: definition.entrypoint }).toEqual({ name, entrypoint: compose.kafka?.entrypoint });
    }
  });

  it('when a broker is checked for health, then the check authenticates with the client file its entrypoint writes', () => {
    for (const [name, definition] of brokers) {
      const test = [definition.healthcheck?.test ?? []].flat().join(' ');
      expect({ name, test }).toEqual({ name, test: expect.stringContaining('--command-config /opt/kafka/config/healthcheck.properties') });
    }
    const entrypoint = [compose.kafka?.entrypoint ?? []].flat().join(' ');
    expect(entrypoint).toContain('config=/opt/kafka/config');
    expect(entrypoint).toContain('>"$$config/healthcheck.properties"');
  });

  // The entrypoint is run for real by bash, with the image's Kafka commands replaced by stubs that
  // record what they were called with.
  describe('the broker entrypoint', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'compose-kafka-entrypoint-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));
    const bin = join(scratch, 'bin');
    const config = join(scratch, 'config');
    const data = join(scratch, 'data');
    const calls = join(scratch, 'calls');
    mkdirSync(bin);
    mkdirSync(config);
    mkdirSync(data);
    const stub = (file: string, body: string) => {
      writeFileSync(join(bin, file), `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(join(bin, file), 0o755);
    };
    stub('kafka-storage.sh', `printf '%s\\n' "$@" >>"${calls}"; touch "$KAFKA_LOG_DIRS/meta.properties"`);
    stub('kafka-server-start.sh', 'echo "kafka-started $1"');

    const run = (overrides: Record<string, string> = {}) => {
      const [shell, flag, script] = [compose.kafka?.entrypoint ?? []].flat();
      expect([shell, flag]).toEqual(['bash', '-c']);
      const runnable = script.replaceAll('$$', '$').replaceAll('/opt/kafka/config', config).replaceAll('/opt/kafka/bin', bin);
      const environment = Object.fromEntries(
        Object.entries(environmentOf(compose.kafka ?? {})).map(([key, value]) => [key, withDefaults(value)]),
      );
      rmSync(calls, { force: true });
      const result = spawnSync(shell, [flag, runnable], {
        env: { PATH: process.env.PATH, ...environment, KAFKA_LOG_DIRS: data, ...overrides },
        // Not a pipe on stdin: bash reads ~/.bashrc when stdin is a socket, which Node's pipes are.
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      return { ...result, calls: existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [] };
    };
    const properties = () =>
      Object.fromEntries(
        readFileSync(join(config, 'server.properties'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );

    it('when a data volume is new, then it is formatted once with one --add-scram per user of KAFKA_USERS, and the server starts', () => {
      const first = run();
      expect({ status: first.status, stderr: first.stderr, stdout: first.stdout.trim() }).toEqual({
        status: 0,
        stderr: '',
        stdout: `kafka-started ${join(config, 'server.properties')}`,
      });
      const added = first.calls.flatMap((arg, index) => (first.calls[index - 1] === '--add-scram' ? [arg] : []));
      expect(added).toEqual(KAFKA_USERS.map((user) => `SCRAM-SHA-512=[name=${user},password=compose-dev-only-${user}-password]`));
      expect(first.calls.slice(0, 3)).toEqual(['format', '--cluster-id', environmentOf(compose.kafka ?? {}).CLUSTER_ID]);
    });

    it("when it renders server.properties, then it follows the image's rule for variable names, and leaves the passwords' variables out", () => {
      run();
      const rendered = properties();
      expect(rendered).toMatchObject({
        'listener.security.protocol.map': 'CONTROLLER:SASL_PLAINTEXT,INTERNAL:SASL_PLAINTEXT,HOST:SASL_PLAINTEXT',
        'listener.name.internal.scram-sha-512.sasl.jaas.config': expect.stringContaining(
          'username="broker" password="compose-dev-only-broker-password"',
        ),
        'allow.everyone.if.no.acl.found': 'false',
        'log.dirs': data,
      });
      expect(Object.keys(rendered).filter((key) => /password|scram\.users|cluster/.test(key))).toEqual([]);
      expect(readFileSync(join(config, 'healthcheck.properties'), 'utf8')).toContain(
        'username="broker" password="compose-dev-only-broker-password"',
      );
    });

    it('when the volume was formatted with these passwords, then the server starts without formatting again', () => {
      const again = run();
      expect({ status: again.status, calls: again.calls, stdout: again.stdout.trim() }).toEqual({
        status: 0,
        calls: [],
        stdout: `kafka-started ${join(config, 'server.properties')}`,
      });
    });

    it('when the volume was formatted with other passwords, then the broker refuses to start and says how to recover', () => {
      const changed = run({ SCRAM_PASSWORD_OPS: 'another-password' });
      expect({ status: changed.status, stdout: changed.stdout, calls: changed.calls }).toEqual({ status: 1, stdout: '', calls: [] });
      expect(changed.stderr).toContain('docker compose down -v');
    });
  });

  describe.each(services.filter((service) => kafkaPrincipalOf(service.name)).map((service) => service.name))('app %s', (name) => {
    const environment = environmentOf(compose[name] ?? {});
    const principal = kafkaPrincipalOf(name)!;

    it('when it connects to Kafka, then it authenticates with SCRAM-SHA-512 as its own principal, its password from the environment', () => {
      expect({ mechanism: environment.KAFKA_SASL_MECHANISM, user: environment.KAFKA_SASL_USERNAME }).toEqual({
        mechanism: 'scram-sha-512',
        user: principal,
      });
      expect(environment.KAFKA_SASL_PASSWORD).toMatch(interpolates(passwordVariable(principal)));
    });

    it('when it publishes or consumes, then it signs with its own key and verifies with public keys, each from its own variable, never NODE_ENV set by compose', () => {
      const prefix = name.toUpperCase();
      expect(environment.MESSAGE_SIGNING_KEY).toMatch(interpolates(`${prefix}_MESSAGE_SIGNING_KEY`));
      expect(environment.MESSAGE_VERIFY_KEYS).toMatch(interpolates(`${prefix}_MESSAGE_VERIFY_KEYS`));
      expect(environment.NODE_ENV).toBeUndefined();
    });

    it('when it starts, then the ACLs exist: it waits for kafka-setup to complete', () => {
      expect(dependencyConditions(compose[name] ?? {})['kafka-setup']).toBe('service_completed_successfully');
    });
  });

  it("when the apps' default keys are compared, then each verifies exactly the producers it consumes from, with the public half of that producer's own key, and loyalty holds no key", () => {
    const defaults = (service: string) => {
      const environment = environmentOf(compose[service] ?? {});
      return {
        signing: environment.MESSAGE_SIGNING_KEY === undefined ? undefined : withDefaults(environment.MESSAGE_SIGNING_KEY),
        verify: environment.MESSAGE_VERIFY_KEYS === undefined ? undefined : withDefaults(environment.MESSAGE_VERIFY_KEYS),
      };
    };
    /** `producer`'s key id and public key, derived from its default private key. */
    const publicHalf = (producer: string) => {
      const [id, der] = defaults(producer).signing!.split(':');
      const key = createPublicKey(createPrivateKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs8' }));
      return `${producer}:${id}:${key.export({ format: 'der', type: 'spki' }).toString('base64')}`;
    };
    for (const service of services) {
      const producers = [...new Set(service.consumed.flatMap((consumed) => consumed.accepts.map((message) => message.producer)))];
      const expected = {
        signing: service.produced.length > 0 ? expect.stringMatching(/^[A-Za-z0-9._-]+:[A-Za-z0-9+/=]+$/) : undefined,
        verify: producers.length > 0 ? producers.map(publicHalf).join(',') : undefined,
      };
      expect({ service: service.name, ...defaults(service.name) }).toEqual({ service: service.name, ...expected });
    }
    expect(defaults('loyalty')).toEqual({ signing: undefined, verify: undefined });
  });

  it('when kafka-setup runs, then it applies the declared ACLs once, with the ACL program of the image, as admin, after Kafka is healthy', () => {
    const setup = compose['kafka-setup'] ?? {};
    const environment = environmentOf(setup);
    expect([setup.command ?? []].flat().join(' ')).toBe('node dist/scripts/kafka-acls.js');
    expect(existsSync(repoFile('scripts/kafka-acls.ts'))).toBe(true);
    expect(services.map((service) => service.name)).toContain(buildArg(setup, 'APP'));
    expect(setup.restart ?? 'no').toBe('no');
    expect(setup.ports ?? []).toEqual([]);
    expect({
      mechanism: environment.KAFKA_SASL_MECHANISM,
      user: environment.KAFKA_SASL_USERNAME,
      brokers: environment.KAFKA_BROKERS,
    }).toEqual({
      mechanism: 'scram-sha-512',
      user: 'admin',
      brokers: environmentOf(compose.orders ?? {}).KAFKA_BROKERS,
    });
    expect(environment.KAFKA_SASL_PASSWORD).toMatch(interpolates(passwordVariable('admin')));
    expect(dependencyConditions(setup).kafka).toBe('service_healthy');
  });

  it('when the Dockerfile builds an app image, then it holds the ACL program and what it imports', () => {
    const dockerfile = readFileSync(repoFile('Dockerfile'), 'utf8');
    for (const copied of ['dist/libs', 'dist/apps ', 'dist/tools/local-stack', 'dist/scripts/kafka-acls.js']) {
      expect({ copied, present: dockerfile.includes(`/app/${copied}`) }).toEqual({ copied, present: true });
    }
  });

  it('when Kafka UI connects, then it authenticates as admin with the password from the environment', () => {
    const ui = environmentOf(compose['kafka-ui'] ?? {});
    expect(ui.KAFKA_CLUSTERS_0_PROPERTIES_SECURITY_PROTOCOL).toBe('SASL_PLAINTEXT');
    expect(ui.KAFKA_CLUSTERS_0_PROPERTIES_SASL_MECHANISM).toBe('SCRAM-SHA-512');
    expect(ui.KAFKA_CLUSTERS_0_PROPERTIES_SASL_JAAS_CONFIG).toMatch(
      /ScramLoginModule required username="admin" password="\$\{KAFKA_ADMIN_PASSWORD(:?-[^}]*)?\}";$/,
    );
  });

  it('when any service is searched for a Kafka password or signing key, then each is an interpolation, never a literal', () => {
    const literals = Object.entries(compose).flatMap(([name, definition]) =>
      Object.entries(environmentOf(definition))
        .filter(([key, value]) => {
          if (/PASSWORD|SIGNING_KEY/.test(key)) return !/^\$\{[A-Z][A-Z0-9_]*(:?-[^}]*)?\}$/.test(value);
          // A JAAS configuration: every password in it is interpolated.
          return [...value.matchAll(/(password|user_[a-z]+)="([^"]*)"/g)].some(
            ([, , secret]) => !/^\$\{[A-Z][A-Z0-9_]*(:?-[^}]*)?\}$/.test(secret),
          );
        })
        .map(([key]) => `${name}: ${key}`),
    );
    expect(literals).toEqual([]);
  });
});
