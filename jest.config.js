// Jest in ESM mode (NestJS 12 is ESM-only): run through `node --experimental-vm-modules`.
import { readFileSync } from 'node:fs';

const { paths } = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')).compilerOptions;

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2023',
        keepClassNames: true,
      },
      module: { type: 'es6' },
      sourceMaps: 'inline',
    },
  ],
};

const moduleNameMapper = {
  ...Object.fromEntries(Object.entries(paths).map(([alias, [target]]) => [`^${alias.replace('/', '\\/')}$`, `<rootDir>/${target}`])),
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform,
  moduleNameMapper,
  testEnvironment: 'node',
};

/**
 * Postgres and Kafka are set up per project, not globally: Jest runs a project's global setup only
 * when at least one of its tests runs, and runs a path shared by several projects once. So
 * `npm run test:unit` (`*.spec.ts`, no I/O) needs no database, no broker and no build, while
 * `npm test` brings both up once for the integration and e2e projects.
 */
const withInfrastructure = {
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
};

const projects = [
  { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,test,tools,bench}/**/*.spec.ts'] },
  { ...common, ...withInfrastructure, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'] },
  { ...common, ...withInfrastructure, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
];

/**
 * `TEST_PROJECT=unit` (what `npm run test:unit` sets) keeps that project only, so a path after it
 * selects files within it: `npm run test:unit -- libs/config`. Jest's own `--selectProjects unit
 * <path>` takes the path for a second project name and runs the whole project.
 */
const only = process.env.TEST_PROJECT;
if (only && !projects.some((project) => project.displayName === only)) {
  throw new Error(`TEST_PROJECT must be one of ${projects.map((project) => project.displayName).join(', ')}, got "${only}"`);
}

/** @type {import('jest').Config} */
export default {
  projects: only ? projects.filter((project) => project.displayName === only) : projects,
  testTimeout: 120_000,
  /**
   * One test file at a time (`npm test` passes `--maxWorkers=1`: the e2e suites start whole
   * systems and kill them, and two at once would fight over two cores and shared ports), in a
   * worker Jest replaces once a file leaves it above this: each ESM test file leaves its module
   * graph behind (about 45 MB a file), and a single in-band process reached 3.8 GB by the end of
   * the suite, next to V8's heap limit, where its collections slowed every test it ran.
   */
  workerIdleMemoryLimit: '800MB',
};
