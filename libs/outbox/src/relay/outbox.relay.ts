import { Inject, Injectable, Logger } from '@nestjs/common';
import { failpoint } from '@libs/failpoints';
import { OneRunAtATime } from '@libs/scheduling';
import { DataSource } from 'typeorm';
import { ReadAhead } from '../layers/read-ahead.layer.js';
import { relayLingerMs } from '../layers/linger.layer.js';
import { outboxLayers } from '../layers/outbox.layers.js';
import { relayTransactionSettings } from '../layers/relaxed-commit.layer.js';
import { OutboxMetrics } from '../ops/outbox.metrics.js';
import { OUTBOX_CONFIG, type OutboxConfig } from '../outbox.config.js';
import { OutboxPublisher } from '../transport/outbox.publisher.js';
import { RelayFailpoints } from './relay.failpoints.js';
import { RelaySteps } from './relay.steps.js';

/** What one relay transaction did. */
export interface BatchResult {
  /** False when another relay holds the leader lock (this one did nothing). */
  leader: boolean;
  selected: number;
  published: number;
  failed: number;
}

/** What one relay transaction did, with the batches it sent (several with the read-ahead layer). */
export interface TransactionResult extends BatchResult {
  batches: number;
  /** True when the transaction ended on a full batch with nothing failed: more rows are due now. */
  moreDue: boolean;
}

const NOT_LEADER: TransactionResult = { leader: false, selected: 0, published: 0, failed: 0, batches: 0, moreDue: false };

/**
 * The outbox relay: it moves committed outbox rows to Kafka, at least once and in order per
 * aggregate. Each batch, in order ({@link publishBatch}):
 *
 * 1. take the leader lock, in a transaction (one relay publishes at a time per database);
 * 2. read due rows in commit order (an aggregate whose earlier row waits out a retry is skipped);
 * 3. send them and await Kafka's acknowledgement;
 * 4. mark published only the rows Kafka acknowledged; a failing row backs off alone, and only its
 *    aggregate waits behind it;
 * 5. commit.
 *
 * Marks count only once committed: a crash anywhere before 5 leaves the rows pending, and they are
 * sent again with the same `message-id`, which consumers dedupe. Nothing is marked that Kafka did
 * not acknowledge, so nothing is lost.
 * Speed-ups sit beside this core in `../layers/` (`outboxLayers`), each with its switch.
 */
@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly steps: RelaySteps;
  /** One cycle at a time; a wake-up during a cycle gets one more after it; stop awaits the cycle. */
  private readonly cycles: OneRunAtATime;
  /** The read-ahead layer, when on: several pipelined batches per transaction. */
  private readonly readAhead: ReadAhead | undefined;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
    @Inject(OutboxMetrics) private readonly metrics: OutboxMetrics,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {
    this.steps = new RelaySteps(dataSource, publisher, metrics, config, relayTransactionSettings(config));
    this.cycles = new OneRunAtATime(
      () => this.runCycle(),
      (error) => this.logger.error(`Relay cycle failed: ${error.message}`),
      { lingerMs: relayLingerMs(config) },
    );
    this.readAhead = config.OUTBOX_READ_AHEAD_ENABLED ? new ReadAhead(this.steps, config, metrics, this.cycles) : undefined;
    const off = outboxLayers.filter((layer) => (config as Record<string, unknown>)[layer.switch] === false).map((layer) => layer.name);
    if (off.length > 0) this.logger.log(`Relay speed-up layers off: ${off.join(', ')}`);
  }

  /** The textbook relay: one batch in its own transaction (steps 1 to 5 above). */
  async publishBatch(): Promise<BatchResult> {
    const result = await this.steps.inLeaderTransaction(async (manager) => {
      const rows = await this.steps.readDueRows(manager);
      if (rows.length === 0) return { leader: true, selected: 0, published: 0, failed: 0 };
      await failpoint(RelayFailpoints.afterClaimBeforePublish);
      const { published, failed } = await this.steps.send(rows, this.cycles.signal);
      // A crash here republishes these rows with the same message-id: at-least-once, by design.
      await failpoint(RelayFailpoints.afterPublishBeforeMark);
      await this.steps.markPublished(manager, published);
      await this.steps.scheduleRetries(manager, failed);
      return { leader: true, selected: rows.length, published: published.length, failed: failed.length };
    });
    return result ?? NOT_LEADER;
  }

  /** One relay transaction: up to `maxBatches` pipelined batches with the read-ahead layer, one batch without. */
  async publishBatches(maxBatches: number): Promise<TransactionResult> {
    if (this.readAhead) return (await this.readAhead.publishBatches(maxBatches)) ?? NOT_LEADER;
    const batch = await this.publishBatch();
    const full = batch.selected === this.config.OUTBOX_BATCH_SIZE && batch.failed === 0;
    return { ...batch, batches: batch.selected > 0 ? 1 : 0, moreDue: full };
  }

  /**
   * One cycle: transactions while batches come back full, up to `OUTBOX_MAX_BATCHES_PER_CYCLE`
   * batches, so a backlog never starves shutdown.
   */
  async runCycle(): Promise<void> {
    const endTimer = this.metrics.cycleDuration.startTimer();
    let attempted = 0;
    let batches = 0;
    let moreDue = false;
    const max = this.config.OUTBOX_MAX_BATCHES_PER_CYCLE;
    while (batches < max && !this.cycles.stopping) {
      const result = await this.publishBatches(Math.min(this.config.OUTBOX_BATCHES_PER_TRANSACTION, max - batches));
      attempted += result.selected;
      batches += result.batches;
      moreDue = result.leader && result.moreDue;
      if (!moreDue) break;
    }
    // The cap ends a cycle, not the drain: more rows are due now, so the next cycle starts at once
    // (`now`: the linger is for wake-ups, not for rows already due) instead of at the next NOTIFY or
    // poll tick. Only from a woken cycle: a direct call (a test, the bench) asks for none after it.
    if (moreDue && this.cycles.running) this.cycles.wake({ now: true });
    if (attempted > 0) endTimer();
  }

  /** Asks for a cycle. A wake-up during a cycle schedules one more after it, so a NOTIFY that raced the read is never lost. */
  wake(): void {
    this.cycles.wake();
  }

  /** Resolves when no cycle is running. */
  idle(): Promise<void> {
    return this.cycles.idle();
  }

  /**
   * Stops accepting wake-ups, abandons the send in flight (its rows are retried later, a possible
   * duplicate that consumers dedupe) and awaits the cycle's commit: shutdown takes milliseconds,
   * whatever the broker does, and never leaves a batch half-marked.
   */
  async stop(): Promise<void> {
    await this.cycles.stop();
    await this.publisher.close();
  }
}
