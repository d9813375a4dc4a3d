/**
 * One figure of the loop's backlog as a probe last read it, beside the bound past which new work
 * is refused: `value > bound` sheds. `signal` names the figure in the 503's detail and in the
 * `http_requests_shed_total{signal}` label, so keep the set of names small and fixed.
 */
export interface BacklogReading {
  signal: string;
  value: number;
  bound: number;
  /**
   * True for a figure the process produces by itself, without any request (the event-loop delay of
   * loading modules, compiling, a neighbour taking the CPU): it stands for a backlog of requests
   * only while requests of the shed routes are in flight, and refuses nothing otherwise.
   */
  whileRequestsInFlight?: boolean;
}

/**
 * Something that reads backlog figures: one query (or an in-memory count) for one or more
 * readings. Read on the sampler's timer, never per request, so a request pays nothing for it.
 */
export interface BacklogProbe {
  read(): Promise<readonly BacklogReading[]>;
  /** Releases what the probe holds (a timer, a histogram); called once at shutdown. */
  close?(): void;
  /** Forgets what it measured so far: called when the server starts listening, so start-up is not read as load. */
  restart?(): void;
}

/**
 * The first reading past its bound, or undefined when every figure is within it. A reading marked
 * `whileRequestsInFlight` counts only when `requestsInFlight` (admitted, not yet answered) is above
 * zero; omitted, every reading counts.
 */
export function firstOverBound(readings: readonly BacklogReading[], requestsInFlight?: number): BacklogReading | undefined {
  const demand = requestsInFlight === undefined || requestsInFlight > 0;
  return readings.find((reading) => reading.value > reading.bound && (demand || !reading.whileRequestsInFlight));
}
