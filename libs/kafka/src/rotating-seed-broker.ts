/** kafkajs' `brokers` option as a function: it is called each time a client picks a seed broker. */
export type BrokersFunction = () => string[];

/**
 * For kafkajs' `brokers` option: each call answers one broker of `brokers`, the next in turn,
 * starting at a random one. kafkajs calls it whenever a client picks the broker it asks first
 * for metadata (a new producer, consumer or admin, and again when that broker refuses the
 * connection), so consecutive clients of a process never start from the same broker, and the
 * processes of a deployment spread their first requests over the cluster.
 *
 * kafkajs 2.2.4 given the list itself seeds every new client from `brokers[0]`. A broker cut from
 * the rest of the cluster but still reachable by the clients keeps answering metadata requests
 * with the leaderships it held before it was fenced. When it is first in the list, every client
 * built afterwards starts from its stale leaders. The outbox relay builds a new producer after each
 * failed send, so each one sent the isolated partition's rows to the isolated node again and waited
 * out its publish deadline (15 s) before a later metadata refresh could find the new leader: 35 and
 * 55 s from the cut to that partition's first rows published, and more than 120 s in one CI run
 * (test/partitions/isolated-broker.e2e-spec.ts). In turn, the relay's next producer after a failed
 * send starts from another broker: 15-30 s in five runs (one or two failed sends each), 45 s in a
 * CI run. (A random pick each time, as the Java client's least-loaded-node search starts at a
 * random offset, left it to chance: 20 s in one run, 51 s in another.)
 */
export function rotatingSeedBroker(brokers: readonly string[]): BrokersFunction {
  if (brokers.length === 0) throw new Error('rotatingSeedBroker needs at least one broker');
  let next = Math.floor(Math.random() * brokers.length);
  return () => {
    const seed = brokers[next];
    next = (next + 1) % brokers.length;
    // One broker: kafkajs takes the one at its own index modulo the length, which is then ours.
    return [seed];
  };
}
