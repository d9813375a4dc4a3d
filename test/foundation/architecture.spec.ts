import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';

/** The dependency rules of the workspace, executable: they fail the build, not a code review. */
const root = new URL('../..', import.meta.url).pathname;

/** The code files under `dir` that are not specs (`*.spec.ts`, `*.int-spec.ts`, `*.e2e-spec.ts`). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['node_modules', 'dist', 'results'].includes(name) ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(path) && !/spec\.ts$/.test(path) ? [path] : [];
  });
}

function imports(file: string, text = readFileSync(file, 'utf8')): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)].map((match) => match[1]);
}

/** True when `spec`, imported by `file`, is the alias `<aliasPrefix>...` or a relative path into `<root>/<folder>/`. */
function landsIn(file: string, spec: string, aliasPrefix: string, folder: string): boolean {
  if (spec.startsWith(aliasPrefix)) return true;
  return spec.startsWith('.') && relative(root, resolve(dirname(file), spec)).split('/')[0] === folder;
}

/** True when `text` starts a Node child process itself instead of through `NodeProcess`. */
const startsNodeItself = (text: string) =>
  /\b(?:spawn|spawnSync|execFile|execFileSync|fork)\(\s*process\.execPath\b|\[process\.execPath,/.test(text);

/** Every TypeScript file of the workspace, specs included. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['node_modules', 'dist', 'results'].includes(name) ? [] : typeScriptFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `file -> spec` for each import of `file` that {@link landsIn} `folder`. */
function importsInto(file: string, aliasPrefix: string, folder: string): string[] {
  return imports(file)
    .filter((spec) => landsIn(file, spec, aliasPrefix, folder))
    .map((spec) => `${relative(root, file)} -> ${spec}`);
}

/** Static and dynamic (`import('...')`) imports of `file`. */
function allImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  return [...imports(file, text), ...[...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1])];
}

/** True when `spec`, imported by `file`, is `alias` (or a path below it) or a relative path into `<root>/<folder>`. */
function reaches(file: string, spec: string, alias: string, folder: string): boolean {
  if (spec === alias || spec.startsWith(`${alias}/`)) return true;
  return spec.startsWith('.') && `${relative(root, resolve(dirname(file), spec))}/`.startsWith(`${folder}/`);
}

/** What no spec of libs/ or apps/ may import: the local tooling, whose index loads every app through the service catalog. */
const SPEC_FORBIDDEN = [{ alias: '@tools/local-stack', folder: 'tools/local-stack' }];

/** What the test-support leaf may not import: any app, the local tooling, the test fixtures (which load both). */
const LEAF_FORBIDDEN = [
  { alias: '@apps', folder: 'apps' },
  { alias: '@tools/local-stack', folder: 'tools/local-stack' },
  { alias: '@test', folder: 'test' },
];

/** `file -> spec` for each import of `file` that reaches one of `forbidden`. */
function forbiddenImports(file: string, forbidden: readonly { alias: string; folder: string }[], text?: string): string[] {
  return allImports(file, text)
    .filter((spec) => forbidden.some(({ alias, folder }) => reaches(file, spec, alias, folder)))
    .map((spec) => `${relative(root, file)} -> ${spec}`);
}

const projectOf = (file: string) => relative(root, file).split('/').slice(0, 2).join('/');

/** The folders whose code uses the apps from outside: through each app's public entry only. */
const APP_USERS = ['tools', 'bench', 'scripts', 'test'];

/**
 * `file -> spec` for each import of `file` (outside apps/) that reaches an app other than through
 * its public entry `@apps/<name>` (`apps/<name>/src/index.ts`): a relative path into `apps/`, or a
 * path below the alias. Reaching into an app's files couples the tooling to its layout; the entry
 * says what the app offers (its environment schema, its data source and migrations).
 */
function importsIntoAppInternals(file: string, text?: string): string[] {
  return imports(file, text)
    .filter(
      (spec) =>
        (spec.startsWith('.') && relative(root, resolve(dirname(file), spec)).split('/')[0] === 'apps') || /^@apps\/[^/]+\/./.test(spec),
    )
    .map((spec) => `${relative(root, file)} -> ${spec}`);
}

/**
 * Which library may import which (`@libs/<name>`), in runtime code; tests of a library may also
 * import the test fixtures (`@test/fixtures`) and the test-support leaf (`@tools/test-support`), never the local tooling (`@tools/local-stack`). The one place that says how the libraries layer: a new dependency is a
 * design decision, made here, not found in a review. Foundations (no arrow out) first.
 * The pattern libraries (outbox, inbox, commands) know the envelope, never the domain's `contracts`.
 * The outbox and inbox build their producers through `kafka`, the one place producers are configured.
 */
const ALLOWED_LIBRARY_IMPORTS: Record<string, readonly string[]> = {
  backoff: [],
  config: [],
  envelope: ['config'],
  failpoints: ['config'],
  scheduling: [],
  contracts: ['envelope'],
  database: ['config', 'scheduling'],
  telemetry: ['config'],
  // database: a request that got no connection is a 503 with Retry-After, not a 500 (isConnectionUnavailable).
  http: ['config', 'database', 'envelope', 'telemetry'],
  kafka: ['config', 'telemetry'],
  auth: ['config', 'http'],
  metrics: ['auth'],
  health: ['auth', 'config', 'database', 'http', 'kafka'],
  idempotency: ['auth', 'config', 'database', 'envelope', 'failpoints', 'http', 'metrics', 'scheduling'],
  inbox: ['backoff', 'config', 'database', 'envelope', 'failpoints', 'kafka', 'scheduling', 'telemetry'],
  outbox: ['backoff', 'config', 'database', 'envelope', 'failpoints', 'kafka', 'scheduling', 'telemetry'],
  commands: ['backoff', 'config', 'database', 'failpoints', 'scheduling', 'telemetry'],
};

/** A cycle of `table` as `a -> b -> a`, or undefined when there is none. */
function cycleIn(table: Record<string, readonly string[]>): string | undefined {
  const done = new Set<string>();
  const visit = (name: string, path: string[]): string | undefined => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name].join(' -> ');
    if (done.has(name)) return undefined;
    for (const next of table[name] ?? []) {
      const cycle = visit(next, [...path, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return undefined;
  };
  for (const name of Object.keys(table)) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
  return undefined;
}

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
      .flatMap((file) =>
        imports(file)
          .filter((spec) => /(^|\/|@)apps\//.test(spec))
          .map((spec) => `${relative(root, file)} -> ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('when the libraries are listed, then each one has a row in the import table and each row is a library', () => {
    const libraries = readdirSync(join(root, 'libs')).filter((name) => statSync(join(root, 'libs', name)).isDirectory());
    expect(Object.keys(ALLOWED_LIBRARY_IMPORTS).sort()).toEqual(libraries.sort());
  });

  it('when a library imports another library, then the import table allows it', () => {
    const offenders = files
      .filter((file) => projectOf(file).startsWith('libs/'))
      .flatMap((file) => {
        const library = projectOf(file).slice('libs/'.length);
        return imports(file)
          .map((spec) => /^@libs\/([^/]+)$/.exec(spec)?.[1])
          .filter(
            (target): target is string => target !== undefined && target !== library && !ALLOWED_LIBRARY_IMPORTS[library]?.includes(target),
          )
          .map(
            (target) =>
              `${relative(root, file)} -> @libs/${target} (libs/${library} may import: ${ALLOWED_LIBRARY_IMPORTS[library]?.join(', ') || 'nothing'})`,
          );
      });
    expect(offenders).toEqual([]);
  });

  it('when the import table is read as a graph, then it has no cycle', () => {
    expect(cycleIn(ALLOWED_LIBRARY_IMPORTS)).toBeUndefined();
  });

  it('when the cycle check is given a cycle, then it names it', () => {
    expect(cycleIn({ a: ['b'], b: ['c'], c: ['a'] })).toBe('a -> b -> c -> a');
  });

  it('when an app imports, then it never reaches into another app or into a library by path', () => {
    const offenders = files.filter((file) => projectOf(file).startsWith('apps/')).flatMap(relativeImportsOutOfProject);
    expect(offenders).toEqual([]);
  });

  it('when an app imports, then it never imports an app through its public entry (another app, or itself in a cycle)', () => {
    const offenders = files
      .filter((file) => projectOf(file).startsWith('apps/'))
      .flatMap((file) =>
        imports(file)
          .filter((spec) => spec.startsWith('@apps/'))
          .map((spec) => `${relative(root, file)} -> ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('when tools/, bench/, scripts/ or test/ import an app, then only through its public entry @apps/<name>, specs included', () => {
    const users = APP_USERS.flatMap((dir) => typeScriptFiles(join(root, dir)));
    expect(users.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining([
        'tools/local-stack/src/services/service-catalog.ts',
        'bench/outbox-relay.bench.ts',
        'test/foundation/migrations.int-spec.ts',
      ]),
    );
    expect(users.flatMap((file) => importsIntoAppInternals(file))).toEqual([]);
  });

  it('when a relative import into an app is planted in tools/, bench/, scripts/ or test/, then the check names it', () => {
    const planted = (dir: string, depth: number) => {
      const file = join(root, dir, ...Array.from({ length: depth - 1 }, (_, index) => `level${index}`), 'planted.ts');
      const up = '../'.repeat(depth);
      const text = [
        `import { ordersEnv } from '@apps/orders';`,
        `import { createOrdersDataSource } from '${up}apps/orders/src/orders.data-source.js';`,
        `export { Order } from '@apps/orders/src/orders/order.entity.js';`,
        `import { helper } from './helper.js';`,
      ].join('\n');
      return importsIntoAppInternals(file, text);
    };
    expect(planted('tools', 4)).toEqual([
      'tools/level0/level1/level2/planted.ts -> ../../../../apps/orders/src/orders.data-source.js',
      'tools/level0/level1/level2/planted.ts -> @apps/orders/src/orders/order.entity.js',
    ]);
    for (const dir of APP_USERS) expect(planted(dir, 2)).toHaveLength(2);
  });

  it('when a library imports another library, then it goes through the @libs alias, never a relative path', () => {
    const offenders = files.filter((file) => projectOf(file).startsWith('libs/')).flatMap(relativeImportsOutOfProject);
    expect(offenders).toEqual([]);
  });

  it('when runtime code imports, then it never imports the local tooling (tools/ stays out of the image)', () => {
    const offenders = files.flatMap((file) => importsInto(file, '@tools/', 'tools'));
    expect(offenders).toEqual([]);
  });

  it('when a spec under libs/ or apps/ imports, then it takes its test support from @tools/test-support, never @tools/local-stack', () => {
    const specs = ['libs', 'apps'].flatMap((dir) => typeScriptFiles(join(root, dir))).filter((file) => /spec\.ts$/.test(file));
    expect(specs.length).toBeGreaterThan(40);
    expect(specs.filter((file) => allImports(file).includes('@tools/test-support')).length).toBeGreaterThan(30);
    expect(specs.flatMap((file) => forbiddenImports(file, SPEC_FORBIDDEN))).toEqual([]);
  });

  it('when the test-support leaf imports, then it loads no app, nothing of tools/local-stack and no test fixture', () => {
    const leaf = typeScriptFiles(join(root, 'tools', 'test-support'));
    expect(leaf.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining(['tools/test-support/src/index.ts', 'tools/test-support/src/postgres/test-database.ts']),
    );
    expect(leaf.flatMap((file) => forbiddenImports(file, LEAF_FORBIDDEN))).toEqual([]);
  });

  const planted = [
    {
      where: 'a spec of libs/',
      file: 'libs/outbox/src/relay/planted.int-spec.ts',
      forbidden: SPEC_FORBIDDEN,
      lines: [
        `import { waitFor } from '@tools/local-stack';`,
        `import type { ServiceProcess } from '../../../../tools/local-stack/src/services/service-process.js';`,
        `const { services } = await import('@tools/local-stack');`,
        `import { uniqueName } from '@tools/test-support';`,
      ],
      named: ['@tools/local-stack', '../../../../tools/local-stack/src/services/service-process.js', '@tools/local-stack'],
    },
    {
      where: 'the test-support leaf',
      file: 'tools/test-support/src/kafka/planted.ts',
      forbidden: LEAF_FORBIDDEN,
      lines: [
        `import { ordersEnv } from '@apps/orders';`,
        `import { services } from '../../../local-stack/src/services/service-catalog.js';`,
        `export { TestServices } from '@test/fixtures';`,
        `import { createKafka } from '@libs/kafka';`,
        `import { waitFor } from '../wait-for.js';`,
      ],
      named: ['@apps/orders', '../../../local-stack/src/services/service-catalog.js', '@test/fixtures'],
    },
  ];

  it.each(planted)(
    'when forbidden imports are planted in $where, then the check names each of them',
    ({ file, forbidden, lines, named }) => {
      expect(forbiddenImports(join(root, file), forbidden, lines.join('\n'))).toEqual(named.map((spec) => `${file} -> ${spec}`));
    },
  );

  it('when code outside test/ imports, then only a spec imports the test fixtures', () => {
    const outside = readdirSync(root)
      .filter((name) => !['test', 'node_modules', 'dist', '.git', '.local'].includes(name))
      .flatMap((name) =>
        statSync(join(root, name)).isDirectory() ? sourceFiles(join(root, name)) : /\.(ts|js|mjs)$/.test(name) ? [join(root, name)] : [],
      );
    expect(outside.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining(['scripts/start-local.ts', 'bench/run-bench.ts', 'tools/local-stack/src/index.ts']),
    );
    const offenders = outside.flatMap((file) => importsInto(file, '@test/', 'test'));
    expect(offenders).toEqual([]);
  });

  it('when the import checks are given offending imports, then they name them', () => {
    const file = join(root, 'scripts', 'example.ts');
    expect(landsIn(file, '../test/fixtures/index.js', '@test/', 'test')).toBe(true);
    expect(landsIn(file, '@test/fixtures', '@test/', 'test')).toBe(true);
    expect(landsIn(file, '../tools/local-stack/src/index.js', '@tools/', 'tools')).toBe(true);
    expect(landsIn(file, './test-helpers.js', '@test/', 'test')).toBe(false);
    expect(landsIn(join(root, 'libs', 'kafka', 'src', 'index.ts'), '../../../tools/x.js', '@tools/', 'tools')).toBe(true);
  });

  it('when any code starts a Node process (an app, a script, a migration), then it does so through the one process class', () => {
    const all = ['apps', 'libs', 'test', 'tools', 'scripts', 'bench'].flatMap((dir) => typeScriptFiles(join(root, dir)));
    const processClass = join(root, 'tools', 'local-stack', 'src', 'processes', 'node-process.ts');
    expect(all).toContain(processClass);
    const offenders = all.filter((file) => file !== processClass && startsNodeItself(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
    expect(startsNodeItself(readFileSync(processClass, 'utf8'))).toBe(true);
    // Split, so this file does not match its own check.
    expect(startsNodeItself('spawnSync(' + "process.execPath, ['dist/x.js'])")).toBe(true);
    expect(startsNodeItself("spawnSync('promtool', ['check'])")).toBe(false);
  });

  it('when production code is scanned, then no entity schema is synchronized instead of migrated', () => {
    const offenders = files.filter((file) => /synchronize:\s*true/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
