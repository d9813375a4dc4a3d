/** kafkajs' `brokers` option as a function: it is called each time a client picks a seed broker. */
export type BrokersFunction = () => string[];

/**
 * `brokers` in a new random order on every call, for kafkajs' `brokers` option, so that each client
 * asks a random broker for its first metadata, as the Java client does (its least-loaded-node search
 * starts at a random offset).
 *
 * kafkajs 2.2.4 seeds every new client (producer, consumer, admin) from `brokers[0]` of a fixed
 * list. A broker cut from the rest of the cluster but still reachable by the clients keeps
 * answering metadata requests with the leaderships it held before it was fenced. When that broker
 * is first in the list, every client built afterwards learns only the stale leaders, and sends
 * there; the outbox relay builds a new producer after each failed send, so it kept asking the same
 * isolated broker and published nothing until the link healed (test/partitions/isolated-broker.e2e-spec.ts
 * timed out after 120 s). Seeded at random, each new producer reaches a broker that knows the new
 * leader with the odds of the healthy brokers among all of them.
 */
export function randomSeedBrokers(brokers: readonly string[]): BrokersFunction {
  return () => shuffled(brokers);
}

function shuffled(items: readonly string[]): string[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}
