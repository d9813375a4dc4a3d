// `npm run docs:kafka-acls`: rewrites the ACL table of docs/security.md from kafkaAclRules.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, withKafkaAclTable } from '@tools/local-stack';

const target = join(findRepoRoot(), 'docs', 'security.md');
writeFileSync(target, withKafkaAclTable(readFileSync(target, 'utf8')));
console.log(`[docs:kafka-acls] wrote ${target}`);
