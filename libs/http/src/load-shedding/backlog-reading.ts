/**
 * One figure of the loop's backlog as a probe last read it, beside the bound past which new work
 * is refused: `value > bound` sheds. `signal` names the figure in the 503's detail and in the
 * `http_requests_shed_total{signal}` label, so keep the set of names small and fixed.
 */
export interface BacklogReading {
  signal: string;
  value: number;
  bound: number;
}

/**
 * Something that reads backlog figures: one query (or an in-memory count) for one or more
 * readings. Read on the sampler's timer, never per request, so a request pays nothing for it.
 */
export interface BacklogProbe {
  read(): Promise<readonly BacklogReading[]>;
  /** Releases what the probe holds (a timer, a histogram); called once at shutdown. */
  close?(): void;
}

/** The first reading past its bound, or undefined when every figure is within it. */
export function firstOverBound(readings: readonly BacklogReading[]): BacklogReading | undefined {
  return readings.find((reading) => reading.value > reading.bound);
}
