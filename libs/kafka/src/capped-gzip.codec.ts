import { promisify } from 'node:util';
import { gzip, unzip } from 'node:zlib';
import kafkajs from 'kafkajs';
import { largestInflationLimit } from './inflation-limit.js';

// Not named imports: Node's CommonJS export detection does not see these two in kafkajs.
const { CompressionCodecs, CompressionTypes } = kafkajs;

const gzipAsync = promisify(gzip);
const unzipAsync = promisify(unzip);

/**
 * Header set on each placeholder record; the same name as `Headers.inflationRefused` of
 * `@libs/envelope` (libs/kafka does not depend on the envelope), which the inbox dead-letters.
 */
const INFLATION_REFUSED_HEADER = 'kafka-inflation-refused';

/** Zigzag varint, as Kafka's record format writes lengths and deltas. */
function varint(value: number): Buffer {
  let zigzag = (value << 1) ^ (value >> 31);
  const bytes: number[] = [];
  do {
    let byte = zigzag & 0x7f;
    zigzag >>>= 7;
    if (zigzag !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (zigzag !== 0);
  return Buffer.from(bytes);
}

/** One v2 record without key or value, at `offsetDelta`, with one header: what a placeholder is. */
function placeholderRecord(offsetDelta: number, header: Buffer): Buffer {
  const name = Buffer.from(INFLATION_REFUSED_HEADER);
  const body = Buffer.concat([
    Buffer.from([0]), // attributes
    varint(0), // timestamp delta: the batch's first timestamp
    varint(offsetDelta),
    varint(-1), // key: null
    varint(-1), // value: null
    varint(1), // one header
    varint(name.length),
    name,
    varint(header.length),
    header,
  ]);
  return Buffer.concat([varint(body.length), body]);
}

/**
 * The record count of the batch `compressed` belongs to. kafkajs reads it (an int32) right before
 * the compressed bytes and hands the codec a slice of the same fetch buffer, so it sits in the 4
 * bytes before the slice. Read from there because the codec is given nothing else; 1 when the
 * bytes are not there (a buffer that is not such a slice).
 */
function recordCountBefore(compressed: Buffer): number {
  if (compressed.byteOffset < 4) return 1;
  const count = new DataView(compressed.buffer, compressed.byteOffset - 4, 4).getInt32(0);
  return count >= 1 && count <= 1_000_000 ? count : 1;
}

/**
 * kafkajs' gzip codec with a cap on what one batch may inflate to. The stock codec inflates
 * without limit: a small compressed batch (a "zip bomb") can expand to gigabytes in the consumer.
 * Past `maxInflatedBytes`, zlib stops and the batch is replaced by one placeholder record per
 * record it held (same offsets, no key or value, a `kafka-inflation-refused` header), which the
 * inbox dead-letters as a stub with its coordinates, so the partition moves on.
 * Compression is the stock one.
 */
export function cappedGzipCodec(maxInflatedBytes: number) {
  return {
    async compress(encoder: { buffer: Buffer }): Promise<Buffer> {
      return gzipAsync(encoder.buffer);
    },
    async decompress(compressed: Buffer): Promise<Buffer> {
      try {
        return await unzipAsync(compressed, { maxOutputLength: maxInflatedBytes });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
        const header = Buffer.from(`${compressed.length} compressed bytes inflate past the limit of ${maxInflatedBytes} bytes`);
        return Buffer.concat(Array.from({ length: recordCountBefore(compressed) }, (_, index) => placeholderRecord(index, header)));
      }
    },
  };
}

/**
 * Registers {@link cappedGzipCodec} as kafkajs' gzip codec. The registry is global to the process:
 * the last call's limit applies to every client. Called by `createKafka` and `kafkaServerOptions`.
 *
 * @param maxInflatedBytes default: the largest that fits this process's heap for one partition at a time ({@link largestInflationLimit})
 */
export function registerCappedGzip(maxInflatedBytes: number = largestInflationLimit(1)): void {
  const codec = cappedGzipCodec(maxInflatedBytes);
  CompressionCodecs[CompressionTypes.GZIP] = () => codec;
}
