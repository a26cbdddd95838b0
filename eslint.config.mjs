// Flat ESLint config for the whole workspace.
// Module boundaries (the architecture, enforced): see docs/architecture.md "Who may import what".
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import moduleBoundaries from './libs/tooling/lint/module-boundaries.cjs';

export default [
  { ignores: ['**/dist', '**/node_modules', '**/coverage', '**/.nx', 'tmp/**', '**/lint-fixtures/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries],
    },
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
    // The one-process launcher is the composition root: the only project that imports applications
    // (through their index.ts). Everywhere else importing an app is an error ("Imports of apps are
    // forbidden"); libs/tooling/lint/module-boundaries.spec.ts proves it.
    files: ['apps/medfolio/src/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
];
