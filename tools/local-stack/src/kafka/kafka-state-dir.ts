import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Creates `dir`, the state directory of a broker or cluster of its own under `<repoRoot>/.local`,
 * with the shared broker's jars linked into it when they are there: no Maven fetch per broker.
 */
export function makeKafkaStateDir(repoRoot: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const sharedLibs = join(repoRoot, '.local', 'kafka', 'libs');
  const sharedStamp = join(repoRoot, '.local', 'kafka', 'libs.version');
  if (existsSync(sharedLibs) && existsSync(sharedStamp)) {
    symlinkSync(sharedLibs, join(dir, 'libs'));
    copyFileSync(sharedStamp, join(dir, 'libs.version'));
  }
}
