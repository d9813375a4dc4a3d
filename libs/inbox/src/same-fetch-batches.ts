import type { InboxBatch, InboxConsumer, InboxOutcome } from './inbox.consumer.js';
import type { InboxRoute } from './inbox-consumes.js';

interface Waiting {
  batch: InboxBatch;
  route: InboxRoute;
  resolve(outcomes: InboxOutcome[]): void;
  reject(error: unknown): void;
}

/**
 * Gathers the partition batches the transport hands over in one turn of the event loop, and hands
 * those of one route to the inbox together ({@link InboxConsumer.consumeTogether}): one transaction
 * for the partitions of one fetch instead of one each. Why a turn: kafkajs starts a handler for
 * each partition of a fetch at once (up to `partitionsConsumedConcurrently`), with no I/O before
 * the call, so every batch of the fetch has arrived by then; a lone batch waits for nothing more
 * than that turn.
 */
export class SameFetchBatches {
  private waiting: Waiting[] | undefined;

  constructor(private readonly inbox: Pick<InboxConsumer, 'consume' | 'consumeTogether'>) {}

  consume(batch: InboxBatch, route: InboxRoute): Promise<InboxOutcome[]> {
    return new Promise((resolve, reject) => {
      if (this.waiting === undefined) {
        this.waiting = [];
        setImmediate(() => this.handOver());
      }
      this.waiting.push({ batch, route, resolve, reject });
    });
  }

  private handOver(): void {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    const byRoute = new Map<InboxRoute, Waiting[]>();
    for (const one of waiting) byRoute.set(one.route, [...(byRoute.get(one.route) ?? []), one]);
    for (const [route, group] of byRoute) {
      const handled =
        group.length === 1
          ? [this.inbox.consume(group[0].batch, route)]
          : this.inbox.consumeTogether(
              group.map((one) => one.batch),
              route,
            );
      // Each caller waits for its own batch only: one that fails alone does not fail the others.
      group.forEach((one, index) => void handled[index].then(one.resolve, one.reject));
    }
  }
}
