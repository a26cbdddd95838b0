// Flat ESLint config for the whole workspace.
// Module boundaries (the architecture, enforced): see docs/architecture.md "Who may import what".
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import moduleBoundaries from './libs/tooling/lint/module-boundaries.cjs';
import { ensureProjectGraph } from './libs/tooling/lint/project-graph.cjs';

// The boundary rule needs Nx's project graph; without one it skips itself (a plain `npx eslint`).
await ensureProjectGraph(import.meta.dirname);

export default [
  { ignores: ['**/dist', '**/node_modules', '**/coverage', '**/.nx', 'tmp/**', '**/lint-fixtures/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries.production],
    },
  },
  {
    // Test code may use test support (@medfolio/testing); production code never does.
    files: moduleBoundaries.TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries.tests] },
  },
  {
    // The one-process launcher is the composition root: the only project that imports applications
    // (through their `@medfolio/<name>-app` alias). Everywhere else importing an app is an error
    // ("Imports of apps are forbidden"); libs/tooling/lint/module-boundaries.spec.ts proves it.
    files: ['apps/medfolio/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries.launcher] },
  },
  {
    files: moduleBoundaries.TEST_FILES.map((glob) => `apps/medfolio/${glob}`),
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries.launcherTests] },
  },
  {
    // The gateway holds no database and no clinical engine (apps/gateway/src/no-database.spec.ts
    // checks the same at run time).
    files: ['apps/gateway/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', moduleBoundaries.gatewayRestrictedImports] },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
];
