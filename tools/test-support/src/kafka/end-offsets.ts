import type { Admin } from 'kafkajs';
import { waitFor } from '../wait-for.js';

/**
 * `admin.fetchTopicOffsets` that rides out a partition changing leaders under it (a topic just
 * created by another process answers NOT_LEADER for a moment); kafkajs's admin does not retry that.
 */
export function fetchEndOffsets(admin: Admin, topic: string): Promise<{ partition: number; high: string }[]> {
  return waitFor(
    async () => {
      try {
        return await admin.fetchTopicOffsets(topic);
      } catch (error) {
        if ((error as { retriable?: boolean }).retriable) return undefined;
        throw error;
      }
    },
    { timeoutMs: 30_000, intervalMs: 100, description: `end offsets of ${topic}` },
  );
}
