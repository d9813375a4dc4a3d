// Compiles apps/, libs/, tools/, scripts/, bench/ and the parts of test/ that run as commands (the
// chaos soak of `npm run chaos` and its fixtures; spec files nowhere) to dist/ with swc (decorator
// metadata included, which Nest's dependency injection needs). Path aliases come from tsconfig.json, the one place they are
// written. `--watch` (used by `npm run dev`): keeps dist/ as it is, recompiles each changed file and
// runs until stopped; type errors are not checked then (run `npm run typecheck`).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tsconfig = JSON.parse(readFileSync('tsconfig.json', 'utf8'));
const swcrc = {
  sourceMaps: true,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
    baseUrl: process.cwd(),
    paths: tsconfig.compilerOptions.paths,
  },
  module: { type: 'es6', resolveFully: true },
  exclude: ['\\.spec\\.ts$', '\\.int-spec\\.ts$', '\\.e2e-spec\\.ts$'],
};
/** Written by `--watch` once the first full compile is done; read by scripts/start-local.ts. */
const WATCH_READY_FILE = 'dist/.watch-ready';
const configFile = join(mkdtempSync(join(tmpdir(), 'swc-')), '.swcrc');
writeFileSync(configFile, JSON.stringify(swcrc));
const swcArgs = [
  'node_modules/@swc/cli/bin/swc.js',
  'apps',
  'libs',
  'tools',
  'scripts',
  'bench',
  'test/fixtures',
  'test/chaos',
  '-d',
  'dist',
  '--config-file',
  configFile,
  '--copy-files',
  '--quiet',
];
if (process.argv.includes('--watch')) {
  // swc recompiles everything once when it starts watching; WATCH_READY_FILE appears after that,
  // so `npm run dev` starts the apps only then (else every app would restart right after starting).
  rmSync(WATCH_READY_FILE, { force: true });
  const watcher = spawn(process.execPath, [...swcArgs.filter((arg) => arg !== '--quiet'), '--watch'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  watcher.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (chunk.toString().includes('Watching for file changes')) writeFileSync(WATCH_READY_FILE, `${process.pid}\n`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => watcher.kill(signal));
  watcher.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  rmSync('dist', { recursive: true, force: true });
  execFileSync(process.execPath, swcArgs, { stdio: 'inherit' });
}
