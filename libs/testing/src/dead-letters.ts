import { DeadLetterHeaders } from '@app/envelope';
import type { RecordPosition } from './raw-records.js';
import type { RecordedMessage, TopicRecorder } from './topic-recorder.js';

/** Options of {@link waitForDeadLetter}. */
export interface WaitForDeadLetterOptions {
  /**
   * Only a dead letter with this many attempts counts; default any. On a shared broker another
   * process of the same service may dead-letter the same record with its own settings.
   */
  attempts?: number;
  /** Default 30 s. */
  timeoutMs?: number;
}

/**
 * Waits until `deadLetters` (a recorder on `<topic>.dlq`) has read the dead letter of the record
 * published to `topic` at `position`, found by the headers that name its origin, and returns it.
 */
export async function waitForDeadLetter(
  deadLetters: TopicRecorder,
  topic: string,
  position: RecordPosition,
  options: WaitForDeadLetterOptions = {},
): Promise<RecordedMessage> {
  const matches = (message: RecordedMessage) =>
    message.headers[DeadLetterHeaders.originalPartition] === String(position.partition) &&
    message.headers[DeadLetterHeaders.originalOffset] === String(position.offset) &&
    (options.attempts === undefined || message.headers[DeadLetterHeaders.attempts] === String(options.attempts));
  const messages = await deadLetters.waitUntil((all) => all.some(matches), {
    timeoutMs: options.timeoutMs ?? 30_000,
    description: `the dead letter of ${topic}[${position.partition}]@${position.offset}`,
  });
  return messages.find(matches)!;
}
