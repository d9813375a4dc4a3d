// ESLint 9 flat config. typescript-eslint's recommended rules everywhere, plus the type-aware rules
// that catch what hurts this codebase (a promise nobody awaits loses an error or breaks a commit
// order; a template that prints `[object Object]`) while staying cheap: one TypeScript program per
// tsconfig, found by the project service. The `no-unsafe-*` family is left out on purpose: rows from
// `manager.query` and JSON bodies are `any` by their libraries' types, and a cast at every read would
// be noise, not safety.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.dist-build-*/**', 'node_modules/**', '.local/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/restrict-template-expressions': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-redundant-type-constituents': 'error',
      '@typescript-eslint/no-unsafe-enum-comparison': 'error',
      // Passing a rejection reason on unchanged (a deadline wrapper) is right even when it is `unknown`.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': 'error',
      // `_` names a value that must be bound but is not read (`for (const _ of text)` counts code points).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests and their fixtures read database rows and HTTP bodies whose shape the assertion itself
    // checks; typing each row first would repeat the assertion. The local tooling's HTTP helper
    // answers them (and the demo, which prints bodies field by field) in that shape.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'tools/test-support/src/http/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', globalThis: 'readonly' } },
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
);
