import 'reflect-metadata';
import { join } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Topics } from '@libs/contracts';
import { findRepoRoot, kafkaPrincipalOf, migrateEntry, serviceNamed, services, type ServiceName } from '@tools/local-stack';
import { type InventoryConfig, InventoryAppModule } from '@apps/inventory';
import { type LoyaltyConfig, LoyaltyAppModule } from '@apps/loyalty';
import { type OrdersConfig, OrdersAppModule } from '@apps/orders';
import { readComposeServices } from '../support/compose-file.js';
import {
  appProblems,
  configOf,
  kafkaAclJobProblems,
  kafkaClientProblems,
  literalKafkaSecrets,
  scaledObjectProblems,
  type AclJobFacts,
  type AppUnderCheck,
  type ScalingFacts,
} from '../support/k8s-manifest-checks.js';
import { renderKustomization, type KubeObject } from '../support/kustomize-render.js';
import { routesOf } from '../support/nest-routes.js';

/**
 * deploy/k8s renders offline (`kubectl kustomize`), every object is valid against
 * the Kubernetes schemas (kubernetes-models; KEDA's ScaledObject against its CRD's schema from
 * @kubernetes-models/keda), and the manifests agree with the code: every variable an app's zod
 * schema requires is set (credentials from a Secret only), every value passes that schema, each
 * probe asks a path the app serves, the grace period outlasts the app's own shutdown deadline,
 * migrations run in a Job before the replicas, and the autoscaler never exceeds the partitions.
 */
const root = findRepoRoot();
const kustomizations = { base: 'deploy/k8s/base', 'kind overlay': 'deploy/k8s/overlays/kind' } as const;

/** The schema class of each kind the manifests may hold; any other kind fails the test. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
};

/** The apps with a Kafka principal of their own (loyalty does not talk to Kafka). */
const kafkaApps = services.filter((service) => kafkaPrincipalOf(service.name)).map((service) => service.name);

/** The command compose's kafka-setup runs: the Job must run the same program. */
const composeAclCommand = [readComposeServices(new URL('../../docker-compose.yml', import.meta.url))['kafka-setup']?.command ?? []]
  .flat()
  .join(' ');

function aclJobFacts(objects: KubeObject[]): AclJobFacts {
  const brokers = new Set(
    kafkaApps.map(
      (name) =>
        (objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === `${name}-config`)?.data as Record<string, string>)
          ?.KAFKA_BROKERS,
    ),
  );
  expect(brokers.size).toBe(1);
  return {
    command: composeAclCommand,
    images: services.map((service) => (containerOf(objects, service.name) as { image: string }).image),
    brokers: [...brokers][0],
  };
}

/** Each app's root module as `main.ts` builds it, for the routes it serves. */
const appModules: Record<ServiceName, (config: Record<string, unknown>) => DynamicModule> = {
  orders: (config) => OrdersAppModule.forRoot(config as unknown as OrdersConfig),
  inventory: (config) => InventoryAppModule.forRoot(config as unknown as InventoryConfig),
  loyalty: (config) => LoyaltyAppModule.forRoot(config as unknown as LoyaltyConfig),
};

const containerOf = (objects: KubeObject[], name: string) =>
  (objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name)!.spec as { template: { spec: { containers: never[] } } })
    .template.spec.containers[0];

async function appsUnderCheck(objects: KubeObject[]): Promise<AppUnderCheck[]> {
  return Promise.all(
    services.map(async (service) => {
      const app = {
        name: service.name,
        schema: service.schema,
        portVariable: service.portVariable,
        migrateEntry: migrateEntry(service),
      };
      const config = configOf({ ...app, routes: new Set() }, objects, containerOf(objects, service.name), []);
      return { ...app, routes: await routesOf(appModules[service.name](config)) };
    }),
  );
}

function scalingFacts(objects: KubeObject[]): ScalingFacts {
  const configOfApp = (name: ServiceName) =>
    configOf(
      { name, schema: serviceNamed(name).schema, portVariable: '', routes: new Set(), migrateEntry: '' },
      objects,
      containerOf(objects, name),
      [],
    );
  const inventory = configOfApp('inventory');
  // Both apps create orders.order.v1 at start-up when it is missing (main.ts, ensureTopics).
  const partitions = (['orders', 'inventory'] as const).map((name) => Number(configOfApp(name).KAFKA_TOPIC_PARTITIONS));
  return {
    target: 'inventory',
    topic: serviceNamed('inventory').consumes[0],
    consumerGroup: String(inventory.KAFKA_CONSUMER_GROUP),
    partitions,
  };
}

describe.each(Object.entries(kustomizations))('Kubernetes manifests: %s', (_label, dir) => {
  let objects: KubeObject[];
  let apps: AppUnderCheck[];

  beforeAll(async () => {
    objects = renderKustomization(join(root, dir));
    apps = await appsUnderCheck(objects);
  });

  it('when rendered offline, then every object is of a known kind and valid against its schema', () => {
    expect(objects.length).toBeGreaterThanOrEqual(16);
    const invalid = objects.flatMap((object) => {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      if (!Model) return [`${object.kind} ${object.metadata.name}: no schema for ${object.apiVersion}/${object.kind}`];
      try {
        new Model(object as never).validate();
        return [];
      } catch (error) {
        return [`${object.kind} ${object.metadata.name}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
  });

  it('when compared with each app, then variables, probes, grace period, hardening, migrations, Service and PDB agree with the code', () => {
    expect(apps.map((app) => app.name)).toEqual(['orders', 'inventory', 'loyalty']);
    expect(apps.flatMap((app) => appProblems(app, objects))).toEqual([]);
  });

  it('when the inventory autoscaler is read, then it watches the consumed topic and group, capped at the partition count', () => {
    expect(scaledObjectProblems(objects, scalingFacts(objects))).toEqual([]);
  });

  it('when searched for credentials, then no Secret is in the manifests (it is created outside)', () => {
    expect(objects.filter((object) => object.kind === 'Secret').map((object) => object.metadata.name)).toEqual([]);
  });

  it('when searched for Kafka credentials, then no principal, password or signing key is written in any object', () => {
    expect(literalKafkaSecrets(objects)).toEqual([]);
  });

  it('when a Kafka app connects, then it uses SCRAM-SHA-512 over TLS, its own principal, its own signing key and the public keys from Secrets', () => {
    expect(kafkaApps).toEqual(['orders', 'inventory']);
    expect(apps.filter((app) => kafkaApps.includes(app.name as ServiceName)).flatMap((app) => kafkaClientProblems(app, objects))).toEqual(
      [],
    );
  });

  it('when loyalty (it produces and consumes nothing) is searched for envelope keys, then it holds none, from anywhere', () => {
    const names = (containerOf(objects, 'loyalty') as { env?: { name: string }[] }).env?.map((variable) => variable.name) ?? [];
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'loyalty-config')!.data as Record<string, string>;
    expect([...names, ...Object.keys(config)].filter((name) => /^MESSAGE_(SIGNING|VERIFY)/.test(name))).toEqual([]);
  });

  it('when the apps roll out, then the Job kafka-acls creates the ACLs with the same program as compose, as the admin principal, over TLS', () => {
    expect(composeAclCommand).toBe('node dist/scripts/kafka-acls.js');
    expect(kafkaAclJobProblems(objects, aclJobFacts(objects))).toEqual([]);
  });

  it('when the autoscaler reads the lag, then it authenticates as inventory over TLS with the Secrets of the inventory pods', () => {
    const scaled = objects.find((o) => o.kind === 'ScaledObject')!.spec as {
      triggers: { type: string; metadata: Record<string, string>; authenticationRef?: { name: string } }[];
    };
    const trigger = scaled.triggers.find((candidate) => candidate.type === 'kafka')!;
    expect({ sasl: trigger.metadata.sasl, tls: trigger.metadata.tls }).toEqual({ sasl: 'scram_sha512', tls: 'enable' });
    const auth = objects.find((o) => o.kind === 'TriggerAuthentication' && o.metadata.name === trigger.authenticationRef?.name);
    expect((auth?.spec as { secretTargetRef?: unknown[] } | undefined)?.secretTargetRef).toEqual([
      { parameter: 'username', name: 'inventory-kafka', key: 'KAFKA_SASL_USERNAME' },
      { parameter: 'password', name: 'inventory-kafka', key: 'KAFKA_SASL_PASSWORD' },
      { parameter: 'ca', name: 'kafka-ca', key: 'ca.crt' },
    ]);
  });
});

describe('the manifest checks can fail', () => {
  let objects: KubeObject[];
  let apps: AppUnderCheck[];
  const copy = () => structuredClone(objects);

  beforeAll(async () => {
    objects = renderKustomization(join(root, kustomizations.base));
    apps = await appsUnderCheck(objects);
  });
  const inventory = () => apps.find((app) => app.name === 'inventory')!;

  it('when a required variable is removed from a ConfigMap, then the check names the app and the variable', () => {
    const changed = copy();
    delete (changed.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'inventory-config')!.data as Record<string, string>)
      .LOYALTY_BASE_URL;
    expect(appProblems(inventory(), changed)).toContain(
      'inventory: LOYALTY_BASE_URL is required by its config schema but set nowhere in the manifests',
    );
  });

  it('when DATABASE_URL is written as a literal, then the check asks for a Secret', () => {
    const changed = copy();
    const container = containerOf(changed, 'inventory') as { env: { name: string; value?: string; valueFrom?: unknown }[] };
    container.env = container.env.map((variable) =>
      variable.name === 'DATABASE_URL' ? { name: 'DATABASE_URL', value: 'postgres://inventory:hunter2@postgres:5432' } : variable,
    );
    expect(appProblems(inventory(), changed)).toEqual(
      expect.arrayContaining([
        'inventory: DATABASE_URL holds credentials; take it from a Secret (secretKeyRef)',
        'inventory: DATABASE_URL has a password in the manifests',
      ]),
    );
  });

  it('when a Kafka password or signing key is written as a literal, then the checks name it', () => {
    const changed = copy();
    const container = containerOf(changed, 'inventory') as { env: { name: string; value?: string; valueFrom?: unknown }[] };
    container.env = container.env.map((variable) =>
      variable.name === 'KAFKA_SASL_PASSWORD' ? { name: 'KAFKA_SASL_PASSWORD', value: 'hunter2' } : variable,
    );
    (
      changed.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'orders-config')!.data as Record<string, string>
    ).MESSAGE_SIGNING_KEY = 'k1:MC4CAQAwBQYDK2VwBCIEILGvSUeTH/rUT4rUcTNOvz8MdqQcvlzGMOqrYGbAP5f8';
    expect(literalKafkaSecrets(changed)).toEqual(
      expect.arrayContaining([
        'ConfigMap orders-config: MESSAGE_SIGNING_KEY is a literal',
        expect.stringMatching(/^Deployment inventory.*KAFKA_SASL_PASSWORD is a literal$/),
      ]),
    );
    expect(kafkaClientProblems(inventory(), changed)).toEqual(
      expect.arrayContaining([
        'inventory: KAFKA_SASL_PASSWORD holds credentials; take it from a Secret (secretKeyRef)',
        'inventory: KAFKA_SASL_PASSWORD must come from the Secret inventory-kafka/KAFKA_SASL_PASSWORD (secretKeyRef), not literal',
      ]),
    );
  });

  it('when TLS is off or an app takes another app’s principal, then the check says so', () => {
    const changed = copy();
    (
      changed.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'inventory-config')!.data as Record<string, string>
    ).KAFKA_TLS_ENABLED = 'false';
    const container = containerOf(changed, 'inventory') as { env: { name: string; valueFrom?: { secretKeyRef?: { name: string } } }[] };
    container.env.find((variable) => variable.name === 'KAFKA_SASL_USERNAME')!.valueFrom!.secretKeyRef!.name = 'orders-kafka';
    container.env.find((variable) => variable.name === 'MESSAGE_SIGNING_KEY')!.valueFrom!.secretKeyRef!.name = 'orders-message-signing';
    expect(kafkaClientProblems(inventory(), changed)).toEqual(
      expect.arrayContaining([
        'inventory: KAFKA_TLS_ENABLED must be true: the SASL password crosses the network',
        'inventory: KAFKA_SASL_USERNAME must come from the Secret inventory-kafka/KAFKA_SASL_USERNAME (secretKeyRef), not orders-kafka/KAFKA_SASL_USERNAME',
        'inventory: MESSAGE_SIGNING_KEY must come from the Secret inventory-message-signing/MESSAGE_SIGNING_KEY (secretKeyRef), not orders-message-signing/MESSAGE_SIGNING_KEY',
      ]),
    );
  });

  it('when the ACL Job runs another program or is missing, then the check says so', () => {
    const changed = copy();
    const job = changed.find((o) => o.kind === 'Job' && o.metadata.name === 'kafka-acls')!;
    (job.spec as { template: { spec: { containers: { command: string[] }[] } } }).template.spec.containers[0].command = [
      'kafka-acls.sh',
      '--add',
    ];
    expect(kafkaAclJobProblems(changed, aclJobFacts(changed))).toContain(
      'Job kafka-acls runs `kafka-acls.sh --add`, not `node dist/scripts/kafka-acls.js`',
    );
    expect(
      kafkaAclJobProblems(
        changed.filter((o) => o !== job),
        aclJobFacts(changed),
      ),
    ).toEqual(['no Job kafka-acls']);
  });

  it('when a probe asks a path the app does not serve, then the check says so', () => {
    const changed = copy();
    (containerOf(changed, 'inventory') as { readinessProbe: { httpGet: { path: string } } }).readinessProbe.httpGet.path = '/healthz';
    expect(appProblems(inventory(), changed)).toContain('inventory: readinessProbe path /healthz is not served by the app');
  });

  it('when the grace period is shorter than the app’s shutdown deadline, then the check says so', () => {
    const changed = copy();
    const deployment = changed.find((o) => o.kind === 'Deployment' && o.metadata.name === 'inventory')!;
    (deployment.spec as { template: { spec: { terminationGracePeriodSeconds: number } } }).template.spec.terminationGracePeriodSeconds = 20;
    expect(appProblems(inventory(), changed)).toContain(
      'inventory: terminationGracePeriodSeconds (20) must exceed preStop + HTTP_SHUTDOWN_TIMEOUT_MS (25 s)',
    );
  });

  it('when the autoscaler may exceed the partitions, then the check names the topic', () => {
    const changed = copy();
    (changed.find((o) => o.kind === 'ScaledObject')!.spec as { maxReplicaCount: number }).maxReplicaCount = 12;
    expect(scaledObjectProblems(changed, scalingFacts(changed))).toEqual([
      `maxReplicaCount 12 exceeds the 6 partitions of ${Topics.orders}: the extra consumers would get no partition`,
    ]);
  });
});
