import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { type BacklogProbe, type BacklogReading, firstOverBound } from './backlog-reading.js';
import { InFlightLimit, type InFlightLimitOptions } from './in-flight-limit.js';
import { ShedLog } from './shed-log.js';

/** What {@link BacklogSampler} reads, and how it answers a shed request. */
export interface LoadSheddingOptions {
  /** False: never shed (`LOAD_SHED_ENABLED`). The figures are still read and exported. */
  enabled: boolean;
  /** Period of the reads (`LOAD_SHED_SAMPLE_INTERVAL_MS`). */
  intervalMs: number;
  /** `Retry-After` of a shed request (`LOAD_SHED_RETRY_AFTER_SECONDS`). */
  retryAfterSeconds: number;
  /** Shortest time between two log lines about shed requests (`LOAD_SHED_LOG_INTERVAL_MS`). */
  logIntervalMs: number;
  /** The per-request bound on requests in flight (`LOAD_SHED_TARGET_LATENCY_MS`, `LOAD_SHED_IN_FLIGHT_MIN`). */
  inFlight: InFlightLimitOptions;
  probes: readonly BacklogProbe[];
}

export const LOAD_SHEDDING_OPTIONS = Symbol('LOAD_SHEDDING_OPTIONS');

/**
 * Decides, per request and at no cost, whether a shed route admits it: the requests in flight
 * against their adaptive bound ({@link InFlightLimit}, counted as they come), then the backlog
 * figures of the loop, read on a timer (one bounded query per probe, one read at a time). A
 * failed read forgets the readings instead of keeping stale ones: a database that does not answer
 * is answered 503 by the request itself (`SERVER.UNAVAILABLE`), and a stale "over bound" must not
 * outlive the backlog it saw.
 *
 * It judges load, not warm-up. A cold process is late on its timers by itself: it loads modules,
 * builds the app and compiles its code on first use, and a neighbour may hold the CPU; refusing a
 * request then protects nothing, because no request caused the delay. So the event-loop delay is
 * measured from the moment the server listens (what start-up left behind is forgotten), and it
 * refuses a request only while requests of the shed routes are in flight: a late loop with none
 * in flight is late for its own work. The figures that only requests build up (in flight past
 * λ·W, the outbox backlog, the pool queue) refuse whenever they are past their bound, warm or
 * cold. (docs/decisions/0502-shed-on-load-not-warm-up.md)
 */
@Injectable()
export class BacklogSampler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BacklogSampler.name);
  readonly inFlight: InFlightLimit;
  private readonly backlog: Gauge<'signal'>;
  private readonly bound: Gauge<'signal'>;
  /** `http_requests_shed_total{signal}`: requests refused with 503, by the figure past its bound. */
  readonly shed: Counter<'signal'>;
  private readonly shedLog: ShedLog;
  private readings: readonly BacklogReading[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  /** Counts {@link serverListening} calls: a read begun before one must not bring start-up's figures back. */
  private restarts = 0;

  constructor(
    @Inject(LOAD_SHEDDING_OPTIONS) readonly options: LoadSheddingOptions,
    @Inject(Registry) registry: Registry,
  ) {
    this.inFlight = new InFlightLimit(options.inFlight);
    this.shedLog = new ShedLog((line) => this.logger.warn(line), options.logIntervalMs);
    this.backlog = new Gauge({
      name: 'load_shed_backlog',
      help: 'Backlog figures the load shedding compares with their bounds, as last read',
      labelNames: ['signal'],
      registers: [registry],
    });
    this.bound = new Gauge({
      name: 'load_shed_backlog_bound',
      help: 'Bound of each backlog figure past which new work is refused with 503',
      labelNames: ['signal'],
      registers: [registry],
    });
    this.shed = new Counter({
      name: 'http_requests_shed_total',
      help: 'Requests refused with 503 and Retry-After because a backlog figure was past its bound',
      labelNames: ['signal'],
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.options.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.shedLog.stop();
    await this.running;
    for (const probe of this.options.probes) probe.close?.();
  }

  /**
   * The figure past its bound at the last read, when shedding is on; undefined means accept. A
   * figure the process produces by itself (the event-loop delay) counts only while requests are in
   * flight: see {@link BacklogReading.whileRequestsInFlight}.
   */
  overBound(): BacklogReading | undefined {
    return this.options.enabled ? firstOverBound(this.readings, this.inFlight.count) : undefined;
  }

  /**
   * The server starts listening: what the probes measured while the process loaded and wired
   * itself is forgotten (the event-loop delay of start-up is not a backlog of requests).
   */
  serverListening(): void {
    this.restarts += 1;
    for (const probe of this.options.probes) probe.restart?.();
    this.readings = this.readings.filter((reading) => !reading.whileRequestsInFlight);
  }

  /**
   * One request of a shed route arrives: undefined admits it (counted in flight until
   * `inFlight.leave()`), a reading refuses it, counted in `http_requests_shed_total{signal}`.
   * The sampled figures first: a backlog past its bound sheds whatever the in-flight count.
   */
  admit(): BacklogReading | undefined {
    const over = this.overBound() ?? this.inFlight.tryEnter(this.options.enabled);
    if (over) {
      this.shed.inc({ signal: over.signal });
      this.shedLog.refused(over);
    }
    return over;
  }

  /** One read of every probe; joins the read in flight instead of overlapping it. */
  sample(): Promise<void> {
    this.running ??= this.sampleOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sampleOnce(): Promise<void> {
    const restarts = this.restarts;
    try {
      const read = (await Promise.all(this.options.probes.map((probe) => probe.read()))).flat();
      const readings = restarts === this.restarts ? read : read.filter((reading) => !reading.whileRequestsInFlight);
      // In flight is decided per request; the gauges show it as of this read, beside the others.
      for (const reading of [...readings, this.inFlight.reading()]) {
        this.backlog.set({ signal: reading.signal }, reading.value);
        this.bound.set({ signal: reading.signal }, reading.bound);
      }
      this.readings = readings;
      if (this.failing) this.logger.log('Backlog figures readable again');
      this.failing = false;
    } catch (error) {
      this.readings = [];
      if (!this.failing) this.logger.warn(`Backlog figures unreadable, not shedding on them: ${(error as Error).message}`);
      this.failing = true;
    }
  }
}
