// `npm run docs:kafka-acls`: rewrites the ACL table of docs/security.md from kafkaAclRules.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, withKafkaAclTable, parseCommandLine } from '@tools/local-stack';
parseCommandLine({
  name: 'docs:kafka-acls',
  usage: 'npm run docs:kafka-acls --',
  summary: 'Rewrites the ACL table of docs/security.md from kafkaAclRules.',
  flags: {},
});

const target = join(findRepoRoot(), 'docs', 'security.md');
writeFileSync(target, withKafkaAclTable(readFileSync(target, 'utf8')));
console.log(`[docs:kafka-acls] wrote ${target}`);
