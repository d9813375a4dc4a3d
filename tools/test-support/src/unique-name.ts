import { randomBytes } from 'node:crypto';

/** `prefix_<time>_<random>`: unique per run, so parallel or repeated runs never share state. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/**
 * A SKU nobody else uses: {@link uniqueName} in the shape the services accept (upper case, `-`
 * instead of `_`), so stock a test sets up is its own even on a database other runs share.
 */
export function uniqueSku(prefix: string): string {
  return uniqueName(prefix).toUpperCase().replace(/_/g, '-');
}
