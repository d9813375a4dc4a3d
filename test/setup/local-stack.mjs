// The global setup runs outside Jest's module system (no TypeScript, no path aliases), so it uses
// the compiled tools/local-stack. `npm test` builds dist/ before Jest starts.
import { existsSync } from 'node:fs';

const entry = new URL('../../dist/tools/local-stack/src/index.js', import.meta.url);
if (!existsSync(entry)) {
  throw new Error('dist/ is missing: run `npm test` (it builds first) or `npm run build` before Jest.');
}

export const localStack = await import(entry.href);
