import type { SpeedUpLayer } from '@libs/config';
import type { DeliverBatch, InboxBatch, InboxOutcome, InboxPart } from '../core/inbox.batch.js';
import type { InboxConsumer } from '../core/inbox.consumer.js';
import type { InboxTransaction } from '../core/inbox.transaction.js';
import type { InboxRoute } from '../routing/inbox.route.js';

/**
 * Speed-up layer: the partitions of one fetch in one transaction.
 *
 * What it changes: kafkajs hands each partition of a fetch to its own `eachBatch` call, at once
 * (up to `partitionsConsumedConcurrently`) and with no I/O before the call, so every batch of a
 * fetch has arrived within one turn of the event loop. This layer gathers the batches of that turn
 * and runs those of one topic in ONE transaction (one claim, one lock step, one commit) while
 * `INBOX_BATCH_SIZE` has room, instead of a transaction each waiting on the others' row locks; a
 * batch without room goes on alone, at the same time. Each claim keeps its own partition and offset.
 * What it costs: a lone batch waits one turn of the event loop; when the shared transaction rolls
 * back, each partition starts over alone (through the layers below), so a failure stays with its
 * partition, at the price of the replay.
 * Why: half of inventory's Postgres statements per order and a higher sustained rate, see
 * docs/decisions/0202-fetch-in-one-transaction.md.
 * Off: `INBOX_FETCH_IN_ONE_TRANSACTION_ENABLED=false` (each partition's batch on its own).
 */
export const fetchInOneTransaction: SpeedUpLayer = {
  name: 'fetch-in-one-transaction',
  pattern: 'inbox',
  switch: 'INBOX_FETCH_IN_ONE_TRANSACTION_ENABLED',
  changes: 'The batches of the partitions of one fetch share one transaction while INBOX_BATCH_SIZE has room, instead of one each.',
  costs: 'A lone batch waits one turn of the event loop; a rollback replays every partition of the shared transaction on its own.',
  decision: 'docs/decisions/0202-fetch-in-one-transaction.md',
};

interface Waiting {
  batch: InboxBatch;
  route: InboxRoute;
  resolve(outcomes: InboxOutcome[]): void;
  reject(error: unknown): void;
}

/** The layer itself; `alone` is what runs a batch on its own (the layers below, or the core). */
export class FetchInOneTransaction {
  private waiting: Waiting[] | undefined;

  constructor(
    private readonly core: Pick<InboxConsumer, 'failedBefore'>,
    private readonly transaction: Pick<InboxTransaction, 'run'>,
    private readonly alone: DeliverBatch,
    private readonly batchSize: number,
  ) {}

  /** Takes `batch` into this turn's gathering; settles with its own outcomes once handled. */
  gather(batch: InboxBatch, route: InboxRoute): Promise<InboxOutcome[]> {
    return new Promise((resolve, reject) => {
      if (this.waiting === undefined) {
        this.waiting = [];
        setImmediate(() => this.handOver());
      }
      this.waiting.push({ batch, route, resolve, reject });
    });
  }

  /**
   * Runs `batches` (of one route) in one transaction as far as they fit; one promise per batch, in
   * order, each settling on its own: a batch that fails alone (a rebalance found by its heartbeat)
   * rejects only its own caller, never one whose records are still being handled.
   */
  together(batches: readonly InboxBatch[], route: InboxRoute): Promise<InboxOutcome[]>[] {
    const parts: InboxPart[] = [];
    let room = this.batchSize;
    for (const batch of batches) {
      const { records } = batch;
      // A record that failed before comes alone.
      if (records.length === 0 || records.length > room || !batch.isActive() || this.core.failedBefore(batch, records[0])) continue;
      parts.push({ batch, records });
      room -= records.length;
    }
    if (parts.length < 2) return batches.map((batch) => this.alone(batch, route));
    const shared = this.inOneTransaction(parts, route);
    return batches.map((batch) => {
      const index = parts.findIndex((part) => part.batch === batch);
      if (index < 0) return this.alone(batch, route);
      return shared.then((done) => done?.[index] ?? this.alone(batch, route));
    });
  }

  private handOver(): void {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    const byRoute = new Map<InboxRoute, Waiting[]>();
    for (const one of waiting) byRoute.set(one.route, [...(byRoute.get(one.route) ?? []), one]);
    for (const [route, group] of byRoute) {
      const handled = this.together(
        group.map((one) => one.batch),
        route,
      );
      // Each caller waits for its own batch only: one that fails alone does not fail the others.
      group.forEach((one, index) => void handled[index].then(one.resolve, one.reject));
    }
  }

  /** The outcomes of each part once the transaction committed, or undefined when it rolled back. */
  private async inOneTransaction(parts: readonly InboxPart[], route: InboxRoute): Promise<InboxOutcome[][] | undefined> {
    const result = await this.transaction.run(parts, route, 1);
    if (result.committed) return result.releaseOffsets();
    result.replayed();
    return undefined;
  }
}
