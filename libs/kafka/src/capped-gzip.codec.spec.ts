import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from '@jest/globals';
import { registerCappedGzip } from './capped-gzip.codec.js';

// kafkajs' own record-batch encoder and decoder (not public API, pinned with kafkajs 2.2.4): the
// codec must produce what the real fetch path decodes.
const require = createRequire(import.meta.url);
const { RecordBatch: encodeBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as {
  RecordBatch: (options: object) => Promise<{ buffer: Buffer }>;
};
const Long = require('kafkajs/src/utils/long.js') as { fromInt: (value: number) => unknown };
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder.js') as (decoder: unknown) => Promise<{
  records: { offset: string; key: Buffer | null; value: Buffer | null; headers: Record<string, Buffer> }[];
}>;
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (options: object) => unknown;
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => unknown;

/** A gzip batch of `values` at offset 100, as a broker would return it in a fetch, decoded by kafkajs. */
async function roundTrip(values: string[]) {
  const records = values.map((value, offsetDelta) =>
    Record({ offsetDelta, key: Buffer.from(`k${offsetDelta}`), value: Buffer.from(value), headers: {} }),
  );
  const { buffer } = await encodeBatch({
    compression: 1, // gzip
    firstOffset: Long.fromInt(100),
    records,
    lastOffsetDelta: values.length - 1,
  });
  // A fetch response holds more bytes around a batch: decode from inside a larger buffer.
  const response = Buffer.concat([Buffer.alloc(16, 7), buffer]);
  return decodeBatch(new Decoder(response.subarray(16)));
}

describe('capped gzip codec (kafkajs inflates gzip without a cap)', () => {
  afterEach(() => registerCappedGzip());

  it('when a batch inflates within the cap, then its records decode unchanged', async () => {
    registerCappedGzip(64 * 1024);
    const { records } = await roundTrip(['a'.repeat(1000), 'b']);
    expect(records.map((record) => [record.offset, String(record.value)])).toEqual([
      ['100', 'a'.repeat(1000)],
      ['101', 'b'],
    ]);
  });

  it('when a batch would inflate past the cap, then each of its records becomes a placeholder at its own offset, without key or value, naming the refusal', async () => {
    registerCappedGzip(4096);
    // About 3 MB of zeros compress to a few KB: a small bomb.
    const { records } = await roundTrip(['0'.repeat(1_000_000), '1'.repeat(1_000_000), '2'.repeat(1_000_000)]);
    expect(records.map((record) => record.offset)).toEqual(['100', '101', '102']);
    for (const record of records) {
      expect(record.key).toBeNull();
      expect(record.value).toBeNull();
      expect(String(record.headers['kafka-inflation-refused'])).toMatch(/^\d+ compressed bytes inflate past the limit of 4096 bytes$/);
    }
  });
});
