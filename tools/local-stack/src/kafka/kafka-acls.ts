import kafkajs, { type AclEntry } from 'kafkajs';
import { createKafka, type KafkaSecurity } from '@libs/kafka';
import { kafkaAclRules, type KafkaAclRule } from './kafka-principals.js';

// kafkajs builds these enums in a way Node's CommonJS export detection misses: read them off the default export.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;

/** The kafkajs ACL entries of `rules`: one per rule and operation. */
export function aclEntries(rules: KafkaAclRule[] = kafkaAclRules()): AclEntry[] {
  return rules.flatMap((rule) =>
    rule.operations.map((operation) => ({
      resourceType: rule.resource === 'topic' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
      resourceName: rule.name,
      resourcePatternType: rule.prefixed ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
      principal: `User:${rule.principal}`,
      host: '*',
      operation: AclOperationTypes[operation],
      permissionType: AclPermissionTypes.ALLOW,
    })),
  );
}

/**
 * Creates every ACL of {@link kafkaAclRules} on the brokers, as the super user `security`
 * authenticates: what the local stack does once a broker answers, as compose's and Kubernetes'
 * set-up do for theirs. Creating an ACL that exists changes nothing, so it runs at every start.
 */
export async function applyKafkaAcls(brokers: string[], security: KafkaSecurity): Promise<number> {
  const admin = createKafka({ brokers, clientId: 'local-stack-acls', security }).admin();
  await admin.connect();
  try {
    const acl = aclEntries();
    await admin.createAcls({ acl });
    return acl.length;
  } finally {
    await admin.disconnect();
  }
}
