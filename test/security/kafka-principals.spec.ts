import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { deadLetterTopic } from '@libs/envelope';
import { KAFKA_USERS, kafkaAclRules, type KafkaAclRule, parseKafkaCredentials, withKafkaAclTable } from '@tools/local-stack';

const script = readFileSync(new URL('../../scripts/kafka-local.sh', import.meta.url), 'utf8');

/** The operations `principal` is allowed on topic `name`, sorted; [] when none. */
function topicOperations(rules: KafkaAclRule[], principal: string, name: string): string[] {
  return rules
    .filter((rule) => rule.principal === principal && rule.resource === 'topic' && rule.name === name)
    .flatMap((rule) => [...rule.operations])
    .sort();
}

describe('Kafka principals and ACLs, derived from what each service consumes and produces', () => {
  const rules = kafkaAclRules();

  it('when the broker script creates its SCRAM users, then they are the users the tooling declares', () => {
    const declared = /^SCRAM_USERS=\(([^)]*)\)$/m.exec(script)?.[1].split(/\s+/);
    expect(declared).toEqual([...KAFKA_USERS]);
  });

  it('when a service writes, then only to the topic it produces and the dead letters of the topics it consumes', () => {
    const writes = (principal: string) =>
      [
        ...new Set(rules.filter((rule) => rule.principal === principal && rule.operations.includes('WRITE')).map((rule) => rule.name)),
      ].sort();
    expect(writes('orders')).toEqual([Topics.orders, deadLetterTopic(Topics.reservations)].sort());
    expect(writes('inventory')).toEqual([deadLetterTopic(Topics.orders), Topics.reservations].sort());
    expect(writes('ops')).toEqual([Topics.orders, Topics.reservations].sort());
  });

  it('when a topic has a dead-letter topic, then exactly one principal may write it: the consumer of the topic', () => {
    for (const topic of [Topics.orders, Topics.reservations]) {
      const writers = rules
        .filter((rule) => rule.name === deadLetterTopic(topic) && rule.operations.includes('WRITE'))
        .map((rule) => rule.principal);
      expect(writers).toEqual([topic === Topics.orders ? 'inventory' : 'orders']);
    }
  });

  it('when a service reads, then only the topics it consumes, in groups of its own prefix', () => {
    expect(topicOperations(rules, 'orders', Topics.reservations)).toContain('READ');
    expect(topicOperations(rules, 'orders', Topics.orders)).not.toContain('READ');
    expect(topicOperations(rules, 'inventory', Topics.orders)).toContain('READ');
    expect(topicOperations(rules, 'inventory', Topics.reservations)).not.toContain('READ');
    const groups = rules.filter((rule) => rule.resource === 'group').map((rule) => [rule.principal, rule.name, rule.prefixed]);
    expect(groups).toEqual([
      ['orders', 'orders', true],
      ['inventory', 'inventory', true],
      ['ops', 'ops-', true],
    ]);
  });

  it('when no rule names the super users, then the only way to them is the broker configuration (super.users)', () => {
    expect(rules.filter((rule) => (rule.principal as string) === 'admin' || (rule.principal as string) === 'broker')).toEqual([]);
    expect(readFileSync(new URL('../../infra/kafka/server.properties.template', import.meta.url), 'utf8')).toMatch(
      /^allow\.everyone\.if\.no\.acl\.found=false$[\s\S]*^super\.users=User:broker;User:admin$/m,
    );
  });

  it('when a credentials file lacks a user, then reading it names the user', () => {
    expect(() => parseKafkaCredentials('broker=a\nadmin=b\norders=c\n', 'creds')).toThrow('creds has no password for inventory, ops');
    expect(parseKafkaCredentials('broker=a\nadmin=b=c\norders=d\ninventory=e\nops=f\n').admin).toBe('b=c');
  });
});

describe('docs/security.md', () => {
  it('when the ACLs change, then the table on the page changes with them (npm run docs:kafka-acls)', () => {
    const page = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
    expect(page).toBe(withKafkaAclTable(page));
  });
});
