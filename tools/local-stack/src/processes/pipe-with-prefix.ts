import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * Copies `source` to `sink` one whole line at a time, each line prefixed (`[orders] ...`), so the
 * output of several processes sharing one terminal stays readable. Reading by line, not by chunk,
 * matters: a chunk may end in the middle of a line, and a naive per-chunk prefix would then split
 * that line in two or leave a dangling prefix. `onLine` sees each line too, unprefixed (a supervisor
 * watching for a line such as `node --watch`'s "Failed running"). Resolves when `source` ends.
 */
export function pipeWithPrefix(
  source: Readable,
  prefix: string,
  sink: Writable = process.stdout,
  onLine: (line: string) => void = () => undefined,
): Promise<void> {
  const lines = createInterface({ input: source, crlfDelay: Infinity });
  lines.on('line', (line) => {
    sink.write(`${prefix} ${line}\n`);
    onLine(line);
  });
  return new Promise((resolve) => lines.once('close', () => resolve()));
}
