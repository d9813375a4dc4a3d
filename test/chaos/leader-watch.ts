import { type Admin, logLevel } from 'kafkajs';
import { createKafka } from '@libs/kafka';
import { uniqueName } from '@tools/local-stack';

/**
 * Counts partition leader changes while a soak runs: every second it reads the leaders of `topics`
 * (the offsets topic among them: its leader is the group coordinator) and counts each partition
 * whose leader differs from the one seen before. A partition without a leader (an election under
 * way) is not a change by itself; the new leader it gets is. Best effort: a poll the cluster does
 * not answer is skipped.
 */
export class LeaderWatch {
  /** Leader changes seen, all partitions together. */
  changes = 0;
  private readonly leaders = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private admin: Admin | undefined;
  private polling = false;

  constructor(
    private readonly brokers: string[],
    private readonly topics: string[],
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.polling) await new Promise((resolve) => setTimeout(resolve, 50));
    await this.admin?.disconnect().catch(() => undefined);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if (!this.admin) {
        // Silent: its connection errors while the monkey has the broker down are the soak's own doing.
        this.admin = createKafka({ brokers: this.brokers, clientId: uniqueName('leader-watch'), logLevel: logLevel.NOTHING }).admin({
          retry: { retries: 1 },
        });
        await this.admin.connect();
      }
      const { topics } = await this.admin.fetchTopicMetadata({ topics: this.topics });
      for (const topic of topics) {
        for (const { partitionId, leader } of topic.partitions) {
          if (leader < 0) continue;
          const key = `${topic.name}[${partitionId}]`;
          const before = this.leaders.get(key);
          if (before !== undefined && before !== leader) this.changes++;
          this.leaders.set(key, leader);
        }
      }
    } catch {
      // The cluster is electing or the admin lost its broker: the next poll sees the outcome.
      const admin = this.admin;
      this.admin = undefined;
      await admin?.disconnect().catch(() => undefined);
    } finally {
      this.polling = false;
    }
  }
}
