import { createRequire } from 'node:module';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

interface KafkaConnection {
  send(this: KafkaConnection, protocol: { request: { apiName: string } }, ...rest: unknown[]): Promise<unknown>;
}

/** Requests sent to Kafka by this process since it started, by API name (`Produce`, `Fetch`, ...). */
const counts = new Map<string, number>();
let installed = false;

/**
 * Counts every request any kafkajs client of this process sends, by API, at the one place all of
 * them pass: `Connection.send`. Why there and not kafkajs' `REQUEST` instrumentation events: those
 * are emitted per client (each producer, consumer and admin, the Nest transport's consumer, which
 * builds its own client, included), so counting through them would need a hook in every place a
 * client is made, and would miss one the day a new client appears. Once per process; kafkajs is
 * pinned to 2.2.4 in package.json, like the request-queue fix beside this.
 */
export function installKafkaRequestCounting(): void {
  if (installed) return;
  const ConnectionClass = createRequire(import.meta.url)('kafkajs/src/network/connection.js') as { prototype: KafkaConnection };
  const send = ConnectionClass.prototype.send;
  ConnectionClass.prototype.send = function countedSend(this: KafkaConnection, protocol, ...rest) {
    const api = protocol?.request?.apiName ?? 'unknown';
    counts.set(api, (counts.get(api) ?? 0) + 1);
    return send.call(this, protocol, ...rest);
  };
  installed = true;
}

/** A copy of the process' counts, by API. */
export function kafkaRequestCounts(): Record<string, number> {
  return Object.fromEntries(counts);
}

/**
 * `kafka_requests_total{api}`: what this process costs the brokers, by request type, for the
 * bench's requests per order and for production (a Fetch or Heartbeat rate that jumps says a
 * setting changed). Read from the process-wide counts at scrape time. Without a metrics registry
 * (a tool, a test without MetricsModule) the requests are still counted, just not exported.
 */
@Injectable()
export class KafkaRequestMetrics {
  constructor(@Optional() @Inject(Registry) registry?: Registry) {
    installKafkaRequestCounting();
    if (!registry || registry.getSingleMetric('kafka_requests_total')) return;
    const reported = new Map<string, number>();
    new Counter({
      name: 'kafka_requests_total',
      help: 'Requests this process sent to Kafka brokers, by API (Produce, Fetch, OffsetCommit, Heartbeat, Metadata, ...)',
      labelNames: ['api'],
      registers: [registry],
      collect() {
        for (const [api, count] of counts) {
          const delta = count - (reported.get(api) ?? 0);
          if (delta > 0) this.inc({ api }, delta);
          reported.set(api, count);
        }
      },
    });
  }
}
