// Compiles apps/, libs/, tools/, scripts/, bench/ and the parts of test/ that run as commands (the
// chaos soak of `npm run chaos` and its fixtures; spec files nowhere) to dist/ with swc (decorator
// metadata included, which Nest's dependency injection needs). Path aliases come from tsconfig.json, the one place they are
// written. `--watch` (used by `npm run dev`): keeps dist/ as it is, recompiles each changed file and
// runs until stopped; type errors are not checked then (run `npm run typecheck`).
//
// A one-off build never wipes dist/: every helper command (`npm run orders:seed`, `ops`, `bench`, ...)
// builds first, and `npm run dev` runs the apps from dist/ under `node --watch` at the same time. A
// wiped dist/ killed them with "Cannot find module", and `node --watch` then waited for a change
// that never came to the files it had lost. So it compiles into a fresh sibling directory (same
// depth as dist/, so the source maps' relative paths are the same) and then brings dist/ to that
// content file by file: a changed file is written beside its old self and renamed over it (a
// reader sees the old or the new file, never none or half of one), an unchanged file is not
// touched (a build of unchanged sources restarts no app), and only then are files without a source
// any more removed. Skipping the build when dist/ looks current would be cheaper still, but it
// needs a correct notion of "current" (config, deleted sources, copied files); swc compiles the
// whole tree in about a second, so comparing outputs is simpler and cannot be wrong.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    'usage: npm run build -- [--watch]\n\nCompiles the workspace to dist/ with swc; --watch recompiles each saved file until stopped.',
  );
  process.exit(0);
}

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
/** Where a one-off build compiles to before dist/ is brought to its content; removed after. */
const STAGING_PREFIX = '.dist-build-';
const swcArgs = (outDir) => [
  'node_modules/@swc/cli/bin/swc.js',
  'apps',
  'libs',
  'tools',
  'scripts',
  'bench',
  'test/fixtures',
  'test/chaos',
  '-d',
  outDir,
  '--config-file',
  configFile,
  '--copy-files',
  '--quiet',
];

/** Every file under `root`, as paths relative to it. */
function filesUnder(root, directory = root) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(root, path) : [relative(root, path)];
  });
}

/** Brings `target` to the content of `staging` without a moment where a file is missing or half written. */
function syncInto(staging, target) {
  const built = filesUnder(staging);
  for (const file of built) {
    const next = readFileSync(join(staging, file));
    const destination = join(target, file);
    if (existsSync(destination) && readFileSync(destination).equals(next)) continue;
    mkdirSync(dirname(destination), { recursive: true });
    const temporary = `${destination}.${process.pid}.tmp`;
    writeFileSync(temporary, next);
    renameSync(temporary, destination);
  }
  const keep = new Set(built);
  // Top-level dot files are markers, not outputs (WATCH_READY_FILE of a running `npm run dev`).
  for (const file of filesUnder(target)) if (!keep.has(file) && !file.startsWith('.')) unlinkSync(join(target, file));
}

/** Staging directories of builds that were killed half-way (their process is gone). */
function removeAbandonedStaging() {
  for (const name of readdirSync('.')) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length).split('-')[0]);
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(name, { recursive: true, force: true });
    }
  }
}
if (process.argv.includes('--watch')) {
  // swc recompiles everything once when it starts watching; WATCH_READY_FILE appears after that,
  // so `npm run dev` starts the apps only then (else every app would restart right after starting).
  rmSync(WATCH_READY_FILE, { force: true });
  const watcher = spawn(process.execPath, [...swcArgs('dist').filter((arg) => arg !== '--quiet'), '--watch'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  watcher.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (chunk.toString().includes('Watching for file changes')) writeFileSync(WATCH_READY_FILE, `${process.pid}\n`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => watcher.kill(signal));
  watcher.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  removeAbandonedStaging();
  const staging = mkdtempSync(`${STAGING_PREFIX}${process.pid}-`);
  try {
    execFileSync(process.execPath, swcArgs(staging), { stdio: 'inherit' });
    mkdirSync('dist', { recursive: true });
    syncInto(staging, 'dist');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
