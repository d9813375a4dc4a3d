import { deadLetterTopic } from '@libs/envelope';
import { serviceNamed, services, type ServiceName } from '../services/service-catalog.js';

/**
 * The Kafka users of the system. `broker` is the nodes themselves (inter-broker and controller
 * traffic) and `admin` the local tooling (tests, bench, chaos, topic set-up): both super users of
 * the local brokers, never given to an app. Each service that talks to Kafka has a principal of
 * its own, and `ops` is the operator's replay tool. scripts/kafka-local.sh creates the same users
 * (`SCRAM_USERS`; test/security/kafka-principals.spec.ts compares the two lists).
 */
export const KAFKA_USERS = ['broker', 'admin', 'orders', 'inventory', 'ops'] as const;
export type KafkaUser = (typeof KAFKA_USERS)[number];

/** The users a client of this workspace authenticates as (every one but the nodes' own). */
export type KafkaPrincipal = Exclude<KafkaUser, 'broker'>;

/** The services with a Kafka principal of their own: those that consume or produce. */
export type KafkaServicePrincipal = Extract<KafkaPrincipal, ServiceName>;

/** The Kafka principal of `service`, if it talks to Kafka (loyalty does not). */
export function kafkaPrincipalOf(service: ServiceName): KafkaServicePrincipal | undefined {
  const { consumes, produces } = serviceNamed(service);
  return consumes.length > 0 || produces.length > 0 ? (service as KafkaServicePrincipal) : undefined;
}

export type AclOperation = 'READ' | 'WRITE' | 'CREATE' | 'DESCRIBE' | 'DESCRIBE_CONFIGS' | 'DELETE';

/** One ALLOW rule: `principal` may do `operations` on the topic or group `name` (a prefix when `prefixed`). */
export interface KafkaAclRule {
  principal: KafkaPrincipal;
  resource: 'topic' | 'group';
  name: string;
  prefixed: boolean;
  operations: readonly AclOperation[];
}

/**
 * What creating a topic at start-up (`ensureTopics`) and checking its retention
 * (`assertInboxOutlivesTopics`) need on each topic an app touches.
 */
const SET_UP: readonly AclOperation[] = ['DESCRIBE', 'CREATE', 'DESCRIBE_CONFIGS'];

/**
 * The consumer groups of `service`: its name, or any name it begins with (replicas share the one
 * `KAFKA_CONSUMER_GROUP`; tests and benchmarks give every run `<service>-<unique>`).
 */
export function consumerGroupPrefix(service: KafkaServicePrincipal): string {
  return service;
}

/** The prefix of the ops tool's throw-away consumer groups (`ops dlq list/show/replay`). */
export const OPS_GROUP_PREFIX = 'ops-';

/**
 * Every ACL of the system, derived from what each service consumes and produces (the service
 * catalog): a service writes the topics its relay publishes to, reads the topics it consumes,
 * joins only its own consumer groups, and writes the dead-letter topic of each topic it consumes,
 * which no one else may write. `ops` reads every dead-letter topic and writes the topics a replay
 * goes back to. Nothing else is allowed to anyone (`allow.everyone.if.no.acl.found=false`).
 */
export function kafkaAclRules(): KafkaAclRule[] {
  const rules: KafkaAclRule[] = [];
  const talking = services.filter((service) => service.consumes.length > 0 || service.produces.length > 0);
  for (const service of talking) {
    const principal = service.name as KafkaServicePrincipal;
    const topic = (name: string, operations: readonly AclOperation[]) =>
      rules.push({ principal, resource: 'topic', name, prefixed: false, operations: [...operations, ...SET_UP] });
    for (const name of service.produces) topic(name, ['WRITE']);
    for (const name of service.consumes) topic(name, ['READ']);
    for (const name of service.consumes) topic(deadLetterTopic(name), ['WRITE']);
    rules.push({ principal, resource: 'group', name: consumerGroupPrefix(principal), prefixed: true, operations: ['READ', 'DESCRIBE'] });
  }
  for (const name of new Set(talking.flatMap((service) => service.consumes))) {
    rules.push({ principal: 'ops', resource: 'topic', name: deadLetterTopic(name), prefixed: false, operations: ['READ', 'DESCRIBE'] });
    rules.push({ principal: 'ops', resource: 'topic', name, prefixed: false, operations: ['WRITE', 'DESCRIBE'] });
  }
  rules.push({ principal: 'ops', resource: 'group', name: OPS_GROUP_PREFIX, prefixed: true, operations: ['READ', 'DESCRIBE', 'DELETE'] });
  return rules;
}
