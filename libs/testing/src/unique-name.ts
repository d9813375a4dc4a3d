import { randomBytes } from 'node:crypto';

/** `prefix_<time>_<random>`: unique per run, so parallel or repeated runs never share state. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}
