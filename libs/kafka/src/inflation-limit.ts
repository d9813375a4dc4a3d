import { getHeapStatistics } from 'node:v8';
import { ConfigValidationError } from '@libs/config';

/**
 * Bytes of heap `JSON.parse` may take per byte of JSON text, at worst, plus the text itself as a
 * string: `[{},{},...]` costs about 22 bytes of objects per byte (Node 24, measured with
 * `process.memoryUsage().heapUsed` around a parse). An inflated record is parsed whole before any
 * check can refuse it, so this factor is what a compressed batch can cost the heap.
 */
export const WORST_JSON_HEAP_BYTES_PER_BYTE = 24;

/**
 * Share of the heap the batches parsed at the same time may take at worst; the rest is the app's
 * own (Nest, TypeORM, kafkajs, the fetch buffers).
 */
const HEAP_SHARE_FOR_PARSED_BATCHES = 0.5;

/** Smallest cap accepted: below it even one ordinary record of a compressed batch would be refused. */
const MIN_INFLATED_BATCH_BYTES = 1024;

/**
 * The largest cap on one inflated gzip batch that fits this process's heap: `partitionsAtOnce`
 * batches (one per partition handled at the same time), each parsed at the worst JSON expansion,
 * take at most half of `heapLimitBytes`. With `--max-old-space-size=128` and 3 partitions at
 * once: about 0.9 MiB. Rounded down to a KiB.
 */
export function largestInflationLimit(partitionsAtOnce: number, heapLimitBytes: number = getHeapStatistics().heap_size_limit): number {
  const bytes = (heapLimitBytes * HEAP_SHARE_FOR_PARSED_BATCHES) / (WORST_JSON_HEAP_BYTES_PER_BYTE * Math.max(1, partitionsAtOnce));
  return Math.max(MIN_INFLATED_BATCH_BYTES, Math.floor(bytes / 1024) * 1024);
}

/**
 * The cap on one inflated gzip batch for `KAFKA_MAX_INFLATED_BATCH_BYTES`: `0` takes
 * {@link largestInflationLimit}; any other value must fit under it, or start-up stops here, before
 * any connection, with a {@link ConfigValidationError} naming the variable. A cap above the heap
 * turns a small compressed record into "JavaScript heap out of memory" on every restart: the offset
 * never moves, so the process dies on the same record forever.
 */
export function inflationLimit(
  configured: number,
  partitionsAtOnce: number,
  heapLimitBytes: number = getHeapStatistics().heap_size_limit,
): number {
  const largest = largestInflationLimit(partitionsAtOnce, heapLimitBytes);
  if (configured === 0) return largest;
  if (configured < MIN_INFLATED_BATCH_BYTES) {
    throw new ConfigValidationError([
      `KAFKA_MAX_INFLATED_BATCH_BYTES must be 0 (derived from the heap) or at least ${MIN_INFLATED_BATCH_BYTES}, got ${configured}`,
    ]);
  }
  if (configured > largest) {
    throw new ConfigValidationError([
      `KAFKA_MAX_INFLATED_BATCH_BYTES=${configured} does not fit this process's heap: ${partitionsAtOnce} batch(es) at once (KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY), parsed at up to ${WORST_JSON_HEAP_BYTES_PER_BYTE} bytes of heap per byte, must take at most half of the heap limit (${heapLimitBytes} bytes): at most ${largest}. Lower it, set 0 to derive it, or raise --max-old-space-size`,
    ]);
  }
  return configured;
}
