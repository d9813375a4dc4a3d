import type { Kafka, Producer } from 'kafkajs';
import { createIdempotentProducer, type IdempotentProducerOptions } from './kafka.factory.js';

/** Longest {@link RenewableProducer.close} waits for a connect in progress before disconnecting. */
const CLOSE_CONNECT_WAIT_MS = 3000;

/**
 * One idempotent producer ({@link createIdempotentProducer}), connected on first use and renewed
 * after a failed send. Why renew: kafkajs rolls its idempotent sequence numbers back on any failed
 * request, even one the broker did append (a timeout, a dropped connection; kafkajs#598). The next
 * send would reuse them for other records: the broker then acknowledges it as a duplicate WITHOUT
 * writing it, or rejects every later send with OUT_OF_ORDER_SEQUENCE_NUMBER. A new producer id
 * starts clean; the cost is a possible duplicate, which consumers dedupe by message-id.
 */
export class RenewableProducer {
  private producer: Producer | undefined;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: IdempotentProducerOptions = {},
  ) {}

  /** The current producer, connected (a new one after {@link retire}). */
  async connected(): Promise<Producer> {
    if (!this.producer) {
      const producer = createIdempotentProducer(this.kafka, this.options);
      producer.on(producer.events.DISCONNECT, () => {
        if (this.producer === producer) this.connecting = undefined;
      });
      this.producer = producer;
    }
    const producer = this.producer;
    this.connecting ??= producer.connect().catch((error: unknown) => {
      if (this.producer === producer) this.connecting = undefined;
      throw error;
    });
    await this.connecting;
    return producer;
  }

  /**
   * Drops the producer after a failed send, without waiting: a send abandoned at a deadline may
   * still hold it. The next {@link connected} builds a new one.
   */
  retire(): void {
    const producer = this.producer;
    this.producer = undefined;
    this.connecting = undefined;
    void producer?.disconnect().catch(() => undefined);
  }

  /**
   * Disconnects. kafkajs goes on retrying a connect in progress after disconnect(), reconnecting on
   * its own; so let it end first (briefly: a broker that does not answer fails it within seconds).
   */
  async close(): Promise<void> {
    const producer = this.producer;
    const connecting = this.connecting;
    this.producer = undefined;
    this.connecting = undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      connecting?.catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_CONNECT_WAIT_MS))),
    ]);
    clearTimeout(timer);
    await producer?.disconnect().catch(() => undefined);
  }
}
