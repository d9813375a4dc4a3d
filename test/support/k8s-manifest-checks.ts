import { ConfigValidationError, envDefault, loadConfig, type EnvSchema } from '@libs/config';
import type { KubeObject } from './kustomize-render.js';
import { newSigningKeyPair, signingKeyEnv, verifyKeyEntry } from '@libs/envelope';

/** What the checks need to know about one app, read from its code. */
export interface AppUnderCheck {
  name: string;
  /** Its zod environment schema (apps/<name>/src/<name>.config.ts). */
  schema: EnvSchema;
  /** The schema variable holding its HTTP port. */
  portVariable: string;
  /** Paths its controllers serve (see routesOf). */
  routes: Set<string>;
  /** Its compiled migration entry inside the image, e.g. `dist/apps/orders/src/migrate.js`. */
  migrateEntry: string;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}
interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface Container {
  name: string;
  volumeMounts?: { name: string; mountPath: string }[];
  image?: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command?: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string } }[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}

/** Marks a variable whose value comes from a Secret, unknown to the manifests. */
const FROM_SECRET = Symbol('from a Secret');

/** Key pairs standing for the ones the signing Secrets hold in the cluster, one per producer. */
const PLACEHOLDER_KEYS = {
  orders: newSigningKeyPair('orders-from-the-secret-store'),
  inventory: newSigningKeyPair('inventory-from-the-secret-store'),
};

/** A value the Secret will hold in the cluster; stands in for it when the configuration is parsed. */
const SECRET_PLACEHOLDER: Record<string, string> = {
  DATABASE_URL: 'postgres://user:secret@postgres:5432',
  AUTH_CLIENT_SECRET: 'client-secret-from-the-secret-store',
  KAFKA_SASL_USERNAME: 'principal-from-the-secret-store',
  KAFKA_SASL_PASSWORD: 'password-from-the-secret-store',
  MESSAGE_SIGNING_KEY: signingKeyEnv(PLACEHOLDER_KEYS.orders),
  MESSAGE_VERIFY_KEYS: Object.entries(PLACEHOLDER_KEYS)
    .map(([producer, pair]) => verifyKeyEntry(producer, pair))
    .join(','),
};

/**
 * The variables of a Kafka client that only a Secret may hold: its principal, its password, its
 * signing key, and the producers' public keys (not secret, but changed with a rotation, outside).
 */
const KAFKA_SECRET_VARIABLES = ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'MESSAGE_SIGNING_KEY', 'MESSAGE_VERIFY_KEYS'] as const;

const find = (objects: KubeObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const podTemplate = (object: KubeObject) => (object.spec as { template: PodTemplate }).template;

/**
 * Each variable the container sees and where from: its literal or ConfigMap value, or {@link FROM_SECRET}
 * (a Secret created outside the manifests). A missing ConfigMap is a problem, not an empty set.
 */
function containerEnvironment(objects: KubeObject[], container: Container, problems: string[]): Map<string, string | typeof FROM_SECRET> {
  const values = new Map<string, string | typeof FROM_SECRET>();
  for (const source of container.envFrom ?? []) {
    if (source.secretRef) {
      problems.push(
        `${container.name}: envFrom secretRef ${source.secretRef.name} hides which variables are secret; name each with secretKeyRef`,
      );
      continue;
    }
    const map = find(objects, 'ConfigMap', source.configMapRef!.name);
    if (!map) problems.push(`${container.name}: ConfigMap ${source.configMapRef!.name} is not in the manifests`);
    for (const [name, value] of Object.entries((map?.data as Record<string, string> | undefined) ?? {})) values.set(name, value);
  }
  for (const variable of container.env ?? []) {
    if (variable.valueFrom?.secretKeyRef) values.set(variable.name, FROM_SECRET);
    else if (variable.valueFrom?.configMapKeyRef) {
      const { name, key } = variable.valueFrom.configMapKeyRef;
      values.set(variable.name, ((find(objects, 'ConfigMap', name)?.data as Record<string, string> | undefined) ?? {})[key] ?? '');
    } else values.set(variable.name, variable.value ?? '');
  }
  return values;
}

/**
 * The configuration the app would load from `container`'s environment, parsed by its own schema:
 * a ConfigMap value the app would refuse at start-up fails here. Problems are appended.
 */
export function configOf(app: AppUnderCheck, objects: KubeObject[], container: Container, problems: string[]): Record<string, unknown> {
  const environment = containerEnvironment(objects, container, problems);
  const required = Object.entries(app.schema)
    .filter(([, variable]) => envDefault(variable) === undefined)
    .map(([name]) => name);
  for (const name of required) {
    if (!environment.has(name)) problems.push(`${app.name}: ${name} is required by its config schema but set nowhere in the manifests`);
  }
  for (const name of environment.keys()) {
    if (!(name in app.schema)) problems.push(`${app.name}: ${name} is set in the manifests but its config schema does not read it`);
  }
  for (const [name, value] of environment) {
    if (name in SECRET_PLACEHOLDER && value !== FROM_SECRET)
      problems.push(`${app.name}: ${name} holds credentials; take it from a Secret (secretKeyRef)`);
    if (value !== FROM_SECRET && /:\/\/[^/\s]*:[^/\s]*@/.test(value)) problems.push(`${app.name}: ${name} has a password in the manifests`);
  }
  const raw = Object.fromEntries([...environment].map(([name, value]) => [name, value === FROM_SECRET ? SECRET_PLACEHOLDER[name] : value]));
  try {
    return loadConfig(app.schema, raw);
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    problems.push(`${app.name}: its configuration would be refused at start-up: ${error.message}`);
    return {};
  }
}

function hardeningProblems(owner: string, spec: PodSpec): string[] {
  const problems: string[] = [];
  if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${owner}: pod securityContext.runAsNonRoot must be true`);
  for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
    const where = `${owner}/${container.name}`;
    const security = container.securityContext ?? {};
    if (security.runAsNonRoot !== true) problems.push(`${where}: runAsNonRoot must be true`);
    if (security.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem must be true`);
    if (security.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation must be false`);
    if (!security.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
    for (const kind of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (!container.resources?.[kind]?.[resource]) problems.push(`${where}: resources.${kind}.${resource} is missing`);
      }
    }
  }
  return problems;
}

/** Seconds a container's preStop hook holds the shutdown back (`sleep N` or the sleep action). */
function preStopSeconds(container: Container): number {
  const { preStop } = container.lifecycle ?? {};
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) : 0;
}

/** Everything wrong with how `app` is deployed in `objects`; empty when nothing is. */
export function appProblems(app: AppUnderCheck, objects: KubeObject[]): string[] {
  const problems: string[] = [];
  const deployment = find(objects, 'Deployment', app.name);
  if (!deployment) return [`${app.name}: no Deployment named ${app.name}`];
  const template = podTemplate(deployment);
  const container = template.spec.containers.find((candidate) => candidate.name === app.name);
  if (!container) return [`${app.name}: the Deployment has no container named ${app.name}`];
  const config = configOf(app, objects, container, problems);

  const httpPort = container.ports?.find((port) => port.name === 'http')?.containerPort;
  if (httpPort !== config[app.portVariable])
    problems.push(`${app.name}: container port http is ${httpPort}, the app listens on ${String(config[app.portVariable])}`);
  const probes = { livenessProbe: '/health/live', readinessProbe: '/health/ready', startupProbe: undefined } as const;
  for (const [probe, expected] of Object.entries(probes) as [keyof typeof probes, string | undefined][]) {
    const get = container[probe]?.httpGet;
    if (!get) {
      if (expected) problems.push(`${app.name}: ${probe} is missing`);
      continue;
    }
    if (!app.routes.has(get.path ?? '')) problems.push(`${app.name}: ${probe} path ${get.path} is not served by the app`);
    else if (expected && get.path !== expected) problems.push(`${app.name}: ${probe} should ask ${expected}, asks ${get.path}`);
    if (get.port !== 'http' && get.port !== httpPort) problems.push(`${app.name}: ${probe} port ${get.port} is not the app's port`);
  }

  const shutdownMs = Number(config.HTTP_SHUTDOWN_TIMEOUT_MS);
  const graceMs = (template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
  const neededMs = preStopSeconds(container) * 1000 + shutdownMs;
  if (!(graceMs > neededMs)) {
    problems.push(
      `${app.name}: terminationGracePeriodSeconds (${graceMs / 1000}) must exceed preStop + HTTP_SHUTDOWN_TIMEOUT_MS (${neededMs / 1000} s)`,
    );
  }
  problems.push(...hardeningProblems(`Deployment ${app.name}`, template.spec));

  const wait = template.spec.initContainers?.find((init) => init.command?.includes('--wait'));
  if (!wait || wait.image !== container.image || !wait.command?.includes(app.migrateEntry)) {
    problems.push(
      `${app.name}: no init container runs \`${app.migrateEntry} --wait\` from the app's image (pods would start before the migrations)`,
    );
  } else configOf({ ...app, name: `${app.name} (wait-for-migrations)` }, objects, wait, problems);

  const job = find(objects, 'Job', `${app.name}-migrate`);
  const migrate = job && podTemplate(job).spec.containers[0];
  if (!job || !migrate) problems.push(`${app.name}: no Job ${app.name}-migrate`);
  else {
    if (migrate.image !== container.image)
      problems.push(`${app.name}: the migration Job runs ${migrate.image}, the app ${container.image}`);
    if (!migrate.command?.includes(app.migrateEntry) || migrate.command.includes('--wait')) {
      problems.push(`${app.name}: the migration Job must run ${app.migrateEntry}`);
    }
    configOf({ ...app, name: `${app.name}-migrate` }, objects, migrate, problems);
    problems.push(...hardeningProblems(`Job ${app.name}-migrate`, podTemplate(job).spec));
  }

  const labels = template.metadata?.labels ?? {};
  const selects = (selector: Record<string, string> | undefined) =>
    selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);
  const service = find(objects, 'Service', app.name);
  if (!service || !selects((service.spec as { selector?: Record<string, string> }).selector)) {
    problems.push(`${app.name}: no Service ${app.name} selecting its pods`);
  }
  const budget = objects.find(
    (o) =>
      o.kind === 'PodDisruptionBudget' &&
      selects((o.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels),
  );
  if (!budget) problems.push(`${app.name}: no PodDisruptionBudget selecting its pods`);
  return problems;
}

/** What the inventory autoscaler needs to agree with. */
export interface ScalingFacts {
  /** The Deployment it scales. */
  target: string;
  /** The topic the app consumes and its consumer group (from the app's configuration). */
  topic: string;
  consumerGroup: string;
  /** Partitions of that topic: every app that may create it, with the count it would create. */
  partitions: number[];
}

/** Everything wrong with the KEDA ScaledObject of `facts.target`. */
export function scaledObjectProblems(objects: KubeObject[], facts: ScalingFacts): string[] {
  const scaled = objects.filter((o) => o.kind === 'ScaledObject');
  const object = scaled.find((o) => (o.spec as { scaleTargetRef?: { name?: string } }).scaleTargetRef?.name === facts.target);
  if (!object) return [`no ScaledObject scales ${facts.target}`];
  const spec = object.spec as {
    maxReplicaCount?: number;
    minReplicaCount?: number;
    triggers: { type: string; metadata: Record<string, string> }[];
  };
  const problems: string[] = [];
  const ceiling = Math.min(...facts.partitions);
  if (new Set(facts.partitions).size > 1)
    problems.push(`the apps would create ${facts.topic} with different partition counts: ${facts.partitions.join(', ')}`);
  if (spec.maxReplicaCount === undefined || spec.maxReplicaCount > ceiling) {
    problems.push(
      `maxReplicaCount ${spec.maxReplicaCount} exceeds the ${ceiling} partitions of ${facts.topic}: the extra consumers would get no partition`,
    );
  }
  const lag = spec.triggers.find((trigger) => trigger.type === 'kafka');
  if (!lag) return [...problems, 'no kafka (consumer lag) trigger'];
  if (lag.metadata.topic !== facts.topic)
    problems.push(`the lag trigger watches ${lag.metadata.topic}, ${facts.target} consumes ${facts.topic}`);
  if (lag.metadata.consumerGroup !== facts.consumerGroup) {
    problems.push(`the lag trigger watches group ${lag.metadata.consumerGroup}, ${facts.target}'s group is ${facts.consumerGroup}`);
  }
  return problems;
}

/** Where each variable of `container` named in `names` comes from: the Secret and key, or `literal`. */
function secretSources(container: Container, names: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const variable of container.env ?? []) {
    if (!names.includes(variable.name)) continue;
    const ref = variable.valueFrom?.secretKeyRef;
    sources.set(variable.name, ref ? `${ref.name}/${ref.key}` : 'literal');
  }
  return sources;
}

/** Problems of TLS towards the brokers: TLS off, or a CA file that no Secret volume provides. */
function kafkaTlsProblems(owner: string, config: Record<string, unknown>, container: Container, spec: PodSpec): string[] {
  const problems: string[] = [];
  if (config.KAFKA_TLS_ENABLED !== true) problems.push(`${owner}: KAFKA_TLS_ENABLED must be true: the SASL password crosses the network`);
  const caFile = typeof config.KAFKA_TLS_CA_FILE === 'string' ? config.KAFKA_TLS_CA_FILE : '';
  if (caFile) {
    const mount = (container.volumeMounts ?? []).find((candidate) => caFile.startsWith(`${candidate.mountPath.replace(/\/$/, '')}/`));
    const volume = mount && spec.volumes?.find((candidate) => candidate.name === mount.name);
    if (!volume?.secret) problems.push(`${owner}: KAFKA_TLS_CA_FILE ${caFile} is not in a volume mounted from a Secret`);
  }
  return problems;
}

/**
 * Everything wrong with how a Kafka app of `objects` authenticates: SCRAM-SHA-512 over TLS, its
 * principal and password from its own Secret `<app>-kafka`, its own signing key from `<app>-message-signing`,
 * the producers' public keys from `message-verify-keys`.
 */
export function kafkaClientProblems(app: AppUnderCheck, objects: KubeObject[]): string[] {
  const deployment = find(objects, 'Deployment', app.name);
  if (!deployment) return [`${app.name}: no Deployment named ${app.name}`];
  const spec = podTemplate(deployment).spec;
  const container = spec.containers.find((candidate) => candidate.name === app.name)!;
  const problems: string[] = [];
  const config = configOf(app, objects, container, problems);
  if (config.KAFKA_SASL_MECHANISM !== 'scram-sha-512') problems.push(`${app.name}: KAFKA_SASL_MECHANISM must be scram-sha-512`);
  problems.push(...kafkaTlsProblems(app.name, config, container, spec));
  const expected: Record<string, string> = {
    KAFKA_SASL_USERNAME: `${app.name}-kafka/KAFKA_SASL_USERNAME`,
    KAFKA_SASL_PASSWORD: `${app.name}-kafka/KAFKA_SASL_PASSWORD`,
    MESSAGE_SIGNING_KEY: `${app.name}-message-signing/MESSAGE_SIGNING_KEY`,
    MESSAGE_VERIFY_KEYS: 'message-verify-keys/MESSAGE_VERIFY_KEYS',
  };
  const sources = secretSources(container, KAFKA_SECRET_VARIABLES);
  for (const [name, source] of Object.entries(expected)) {
    if (sources.get(name) !== source)
      problems.push(`${app.name}: ${name} must come from the Secret ${source} (secretKeyRef), not ${sources.get(name) ?? 'nowhere'}`);
  }
  return problems;
}

/** What the ACL Job must agree with. */
export interface AclJobFacts {
  /** The command compose's kafka-setup runs: the one ACL program. */
  command: string;
  /** The images of the apps: the Job runs one of them. */
  images: string[];
  /** The apps' bootstrap servers, as their ConfigMaps write them. */
  brokers: string;
}

/** Everything wrong with the Job `kafka-acls` that creates the ACLs before the apps need them. */
export function kafkaAclJobProblems(objects: KubeObject[], facts: AclJobFacts): string[] {
  const job = find(objects, 'Job', 'kafka-acls');
  if (!job) return ['no Job kafka-acls'];
  const spec = podTemplate(job).spec;
  const container = spec.containers[0];
  const problems = hardeningProblems('Job kafka-acls', spec);
  if ((container.command ?? []).join(' ') !== facts.command)
    problems.push(`Job kafka-acls runs \`${(container.command ?? []).join(' ')}\`, not \`${facts.command}\``);
  if (!facts.images.includes(container.image ?? '')) problems.push(`Job kafka-acls runs ${container.image}, which is no app's image`);
  const environment = containerEnvironment(objects, container, problems);
  const value = (name: string) => environment.get(name);
  if (value('KAFKA_BROKERS') !== facts.brokers) {
    problems.push(`Job kafka-acls talks to ${String(value('KAFKA_BROKERS'))}, the apps to ${facts.brokers}`);
  }
  if (value('KAFKA_SASL_MECHANISM') !== 'scram-sha-512') problems.push('Job kafka-acls: KAFKA_SASL_MECHANISM must be scram-sha-512');
  const tls = { KAFKA_TLS_ENABLED: value('KAFKA_TLS_ENABLED') === 'true', KAFKA_TLS_CA_FILE: value('KAFKA_TLS_CA_FILE') };
  problems.push(...kafkaTlsProblems('Job kafka-acls', tls, container, spec));
  const sources = secretSources(container, ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']);
  for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']) {
    if (sources.get(name) !== `kafka-admin/${name}`)
      problems.push(`Job kafka-acls: ${name} must come from the Secret kafka-admin/${name} (secretKeyRef)`);
  }
  return problems;
}

/**
 * Every place in `objects` that holds a Kafka principal, password or signing key as a literal: an
 * env `value`, a ConfigMap entry, or a JAAS `password="..."` anywhere. Empty when none does.
 */
export function literalKafkaSecrets(objects: KubeObject[]): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (/password="[^"]+"/.test(value)) found.push(`${path}: a JAAS password`);
      return;
    }
    if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${path}[${index}]`));
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (typeof record.name === 'string' && (KAFKA_SECRET_VARIABLES as readonly string[]).includes(record.name) && 'value' in record) {
      found.push(`${path}: ${record.name} is a literal`);
    }
    for (const [key, child] of Object.entries(record)) visit(child, `${path}.${key}`);
  };
  for (const object of objects) {
    const where = `${object.kind} ${object.metadata.name}`;
    if (object.kind === 'ConfigMap') {
      for (const name of Object.keys((object.data as Record<string, string> | undefined) ?? {})) {
        if ((KAFKA_SECRET_VARIABLES as readonly string[]).includes(name)) found.push(`${where}: ${name} is a literal`);
      }
    }
    visit(object, where);
  }
  return found;
}
