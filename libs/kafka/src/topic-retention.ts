import { ConfigValidationError } from '@libs/config';
import kafkajs, { type Kafka } from 'kafkajs';
import { retryUntil } from './retry-until.js';

// From the default export: Node's CommonJS named-export detection misses this one in kafkajs.
const { ConfigResourceTypes } = kafkajs;

/** How long {@link topicRetentionMs} keeps asking while the cluster settles, as `ensureTopics` does. */
const DESCRIBE_TIMEOUT_MS = 60_000;

/**
 * `retention.ms` of each topic as the broker applies it (topic override or broker default);
 * `Infinity` for -1 (kept for ever). Retried until a deadline: a process that starts while a broker
 * of the cluster is dead and not yet fenced may be sent to it (ECONNREFUSED), and must not exit for
 * that (the chaos soak saw inventory exit at start-up exactly so).
 */
export async function topicRetentionMs(kafka: Kafka, topics: string[]): Promise<Map<string, number>> {
  const deadline = Date.now() + DESCRIBE_TIMEOUT_MS;
  const admin = kafka.admin();
  await retryUntil(deadline, 'Connecting the Kafka admin client', () => admin.connect());
  try {
    const { resources } = await retryUntil(deadline, `Reading retention.ms of ${topics.join(', ')}`, () =>
      admin.describeConfigs({
        includeSynonyms: false,
        resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['retention.ms'] })),
      }),
    );
    return new Map(
      resources.map((resource) => {
        const value = Number(resource.configEntries.find((entry) => entry.configName === 'retention.ms')?.configValue);
        if (!Number.isFinite(value)) throw new Error(`Topic ${resource.resourceName} reports no numeric retention.ms`);
        return [resource.resourceName, value < 0 ? Number.POSITIVE_INFINITY : value];
      }),
    );
  } finally {
    await admin.disconnect();
  }
}

/**
 * The problems that make an inbox too short-lived for `topics`, one line per topic (empty when
 * none). The inbox forgets a message after `inboxRetentionMs`; Kafka can deliver it again (a
 * consumer group reset, a replayed dead letter) for as long as the topic keeps it. A replay that
 * finds no inbox row is applied a second time, so the inbox must outlive the topic's retention.
 */
export function inboxRetentionProblems(inboxRetentionMs: number, retentionByTopic: Map<string, number>): string[] {
  return [...retentionByTopic]
    .filter(([, topicMs]) => inboxRetentionMs < topicMs)
    .map(
      ([topic, topicMs]) =>
        `INBOX_RETENTION_MS=${inboxRetentionMs} is shorter than the retention of topic ${topic} (retention.ms=${Number.isFinite(topicMs) ? topicMs : -1}${Number.isFinite(topicMs) ? '' : ', kept for ever'}): ` +
        'a message replayed after its inbox row is deleted would be applied twice. Raise INBOX_RETENTION_MS or lower the topic retention.',
    );
}

/**
 * Refuses to start when a consumed topic keeps messages longer than the inbox keeps their ids:
 * throws a `ConfigValidationError` naming both values for every such topic: a redelivery older than its inbox row would be handled twice.
 */
export async function assertInboxOutlivesTopics(kafka: Kafka, topics: string[], inboxRetentionMs: number): Promise<void> {
  const problems = inboxRetentionProblems(inboxRetentionMs, await topicRetentionMs(kafka, topics));
  if (problems.length > 0) throw new ConfigValidationError(problems);
}
