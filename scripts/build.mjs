// Compiles apps/, libs/, scripts/ and bench/ to dist/ with swc (decorator metadata included, which
// Nest's dependency injection needs). Path aliases come from tsconfig.json, the one place they are
// written.
import { execFileSync } from 'node:child_process';
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
const configFile = join(mkdtempSync(join(tmpdir(), 'swc-')), '.swcrc');
writeFileSync(configFile, JSON.stringify(swcrc));
rmSync('dist', { recursive: true, force: true });
execFileSync(
  process.execPath,
  ['node_modules/@swc/cli/bin/swc.js', 'apps', 'libs', 'scripts', 'bench', '-d', 'dist', '--config-file', configFile, '--copy-files', '--quiet'],
  { stdio: 'inherit' },
);
