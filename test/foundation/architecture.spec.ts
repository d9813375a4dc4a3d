import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';

/** The dependency rules of STYLE.md, executable: they fail the build, not a code review. */
const root = new URL('../..', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(path) ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)].map((match) => match[1]);
}

const projectOf = (file: string) => relative(root, file).split('/').slice(0, 2).join('/');

/** `file -> spec` for each relative import of `file` that lands in another project (app or library). */
function relativeImportsOutOfProject(file: string): string[] {
  return imports(file)
    .filter((spec) => spec.startsWith('.') && projectOf(join(file, '..', spec)) !== projectOf(file))
    .map((spec) => `${relative(root, file)} -> ${spec}`);
}

describe('module boundaries', () => {
  const files = [...sourceFiles(join(root, 'apps')), ...sourceFiles(join(root, 'libs'))];

  it('when scanning the sources, then there are files to check', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('when a library imports, then it never imports an app', () => {
    const offenders = files
      .filter((file) => projectOf(file).startsWith('libs/'))
      .flatMap((file) => imports(file).filter((spec) => /(^|\/)apps\//.test(spec)).map((spec) => `${relative(root, file)} -> ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('when an app imports, then it never reaches into another app or into a library by path', () => {
    const offenders = files.filter((file) => projectOf(file).startsWith('apps/')).flatMap(relativeImportsOutOfProject);
    expect(offenders).toEqual([]);
  });

  it('when a library imports another library, then it goes through the @app alias, never a relative path', () => {
    const offenders = files.filter((file) => projectOf(file).startsWith('libs/')).flatMap(relativeImportsOutOfProject);
    expect(offenders).toEqual([]);
  });

  it('when runtime code imports, then it never imports the test helpers (@app/testing stays out of the image)', () => {
    const offenders = files
      .filter((file) => !relative(root, file).startsWith('libs/testing/'))
      .flatMap((file) => imports(file).filter((spec) => spec === '@app/testing').map((spec) => `${relative(root, file)} -> ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('when production code is scanned, then no entity schema is synchronized instead of migrated', () => {
    const offenders = files.filter((file) => /synchronize:\s*true/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
