import { Inject, Injectable, Logger } from '@nestjs/common';
import { delay, retryDelayMs } from '@app/backoff';
import { TransactionContext } from '@app/database';
import { type MessageDeclaration, messageSigning } from '@app/envelope';
import { failpoint, type FailpointName } from '@app/failpoints';
import { DeadLetterPublisher } from './dead-letter.publisher.js';
import { failpointContext } from './failpoint-context.js';
import { validateEnvelope } from './envelope-validator.js';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';
import { InboxMetrics } from './inbox.metrics.js';
import { endMessageTelemetry, inMessageScope, startMessageTelemetry } from './inbox-telemetry.js';

export type InboxOutcome = 'processed' | 'duplicate' | 'dead-lettered';

export interface ProcessOptions {
  /** Names this handler in `inbox_messages.consumer`: one row per (handler, message). */
  consumer: string;
  /** The declarations the handler accepts; anything else is dead-lettered before it runs. */
  accepts: readonly MessageDeclaration[];
  /** Killed here in crash tests: committed in the database, offset not yet committed to Kafka. */
  afterCommitFailpoint?: FailpointName;
  /** Killed here in crash tests: the handler ran inside the transaction, which is not committed yet. */
  beforeCommitFailpoint?: FailpointName;
  /** Keeps the consumer's group membership alive while waiting between attempts. */
  heartbeat?: () => Promise<void>;
}

const CLAIM = `
  INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (consumer, message_id) DO NOTHING
  RETURNING message_id`;

/**
 * Exactly-once effects on top of at-least-once delivery. Per message, in ONE transaction: claim
 * `(consumer, message_id)`, run the handler, commit; only then does the caller let the offset
 * advance. A redelivery, or a concurrent copy in another transaction (which blocks on the primary
 * key until the first commits), finds the row and changes nothing.
 *
 * Poison messages never block a partition: invalid ones are dead-lettered at once; a handler that
 * keeps failing is retried with backoff, then dead-lettered. Only when the inbox itself cannot
 * write (database down) does the error propagate, leaving the offset for a later redelivery.
 */
@Injectable()
export class InboxProcessor {
  private readonly logger = new Logger(InboxProcessor.name);

  constructor(
    @Inject(TransactionContext) private readonly tx: TransactionContext,
    @Inject(DeadLetterPublisher) private readonly deadLetters: DeadLetterPublisher,
    @Inject(InboxMetrics) private readonly metrics: InboxMetrics,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
  ) {}

  /** Handles one message in its own consumer span (continuing the record's trace) and logs its outcome. */
  async process(
    raw: RawInboxMessage,
    handler: (envelope: InboxEnvelope) => Promise<unknown>,
    options: ProcessOptions,
  ): Promise<InboxOutcome> {
    const telemetry = startMessageTelemetry(raw, options.consumer);
    try {
      const outcome = await inMessageScope(telemetry, () => this.processInScope(raw, handler, options));
      endMessageTelemetry(telemetry, outcome);
      return outcome;
    } catch (error) {
      endMessageTelemetry(telemetry, 'failed', error);
      throw error;
    }
  }

  private async processInScope(
    raw: RawInboxMessage,
    handler: (envelope: InboxEnvelope) => Promise<unknown>,
    options: ProcessOptions,
  ): Promise<InboxOutcome> {
    const { consumer } = options;
    const check = validateEnvelope(raw, options.accepts, consumer, messageSigning(this.config));
    if (!check.valid) {
      await this.deadLetter(raw, consumer, check.reason, check.error, 0);
      return 'dead-lettered';
    }
    const envelope = check.envelope;
    let lastError: Error | undefined;
    for (let attempt = 1; attempt <= this.config.INBOX_MAX_ATTEMPTS; attempt += 1) {
      const endTimer = this.metrics.handlerDuration.startTimer({ consumer });
      // Set once the inbox's own work (connect, BEGIN, claim) succeeded: an error before that point
      // says nothing about the message (the database is unreachable), so it must not count as an
      // attempt. Retrying and dead-lettering it would empty the topic into the DLQ during an outage.
      let handlerStarted = false;
      try {
        const result = await this.tx.run(async (manager) => {
          const claimed = await manager.query(CLAIM, [
            consumer,
            envelope.messageId,
            envelope.messageType,
            raw.topic,
            raw.partition,
            raw.offset,
            envelope.payloadHash,
          ]);
          if (claimed.length === 0) {
            const [existing] = await manager.query('SELECT payload_hash FROM inbox_messages WHERE consumer = $1 AND message_id = $2', [
              consumer,
              envelope.messageId,
            ]);
            return existing.payload_hash === envelope.payloadHash ? 'duplicate' : 'payload-mismatch';
          }
          handlerStarted = true;
          await handler(envelope);
          if (options.beforeCommitFailpoint) await failpoint(options.beforeCommitFailpoint, failpointContext(envelope));
          return 'processed';
        });
        endTimer();
        if (result === 'payload-mismatch') {
          await this.deadLetter(
            raw,
            consumer,
            'PAYLOAD_MISMATCH',
            `message id ${envelope.messageId} was seen before with another payload`,
            attempt,
          );
          return 'dead-lettered';
        }
        if (result === 'duplicate') {
          this.metrics.duplicates.inc({ consumer });
          return 'duplicate';
        }
        this.metrics.processed.inc({ consumer });
        if (options.afterCommitFailpoint) await failpoint(options.afterCommitFailpoint, failpointContext(envelope));
        return 'processed';
      } catch (error) {
        endTimer();
        if (!handlerStarted) throw error;
        lastError = error as Error;
        this.logger.warn(`${consumer}: attempt ${attempt} for ${envelope.messageType} ${envelope.messageId} failed: ${lastError.message}`);
        if (attempt < this.config.INBOX_MAX_ATTEMPTS) {
          await options.heartbeat?.().catch(() => undefined);
          await delay(retryDelayMs(attempt, this.config.INBOX_RETRY_BASE_MS, this.config.INBOX_RETRY_MAX_MS));
        }
      }
    }
    await this.deadLetter(raw, consumer, 'HANDLER_FAILED', `${lastError?.name}: ${lastError?.message}`, this.config.INBOX_MAX_ATTEMPTS);
    return 'dead-lettered';
  }

  private async deadLetter(raw: RawInboxMessage, consumer: string, reason: string, error: string, attempts: number): Promise<void> {
    await this.deadLetters.publish({ message: raw, consumer, reason, error, attempts });
    this.metrics.deadLettered.inc({ consumer, reason });
    this.logger.error(`${consumer}: dead-lettered ${raw.topic}[${raw.partition}]@${raw.offset} (${reason}: ${error})`);
  }
}
