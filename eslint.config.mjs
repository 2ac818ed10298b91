// Flat config for every workspace (each runs `eslint src`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.next/**', 'var/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain-Node scripts (the bootstrap that runs before dependencies exist, bundling helpers).
    files: ['**/*.{mjs,cjs,js}'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Workflows must stay deterministic: no Node built-ins, process, ORM, HTTP or worker/client SDK inside them.
    files: ['workflows/src/**/*.ts'],
    ignores: ['workflows/src/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', 'process', 'setTimeout', 'setInterval'],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process'],
              message: 'Workflows are deterministic: do I/O in activities.',
            },
            {
              group: ['@mikro-orm/*', '@cfdi/db', '@cfdi/services', 'ioredis', 'pg', 'undici'],
              message: 'Workflows are deterministic: do I/O in activities.',
            },
            {
              group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
              message: 'Only @temporalio/workflow inside workflows.',
            },
            {
              group: ['@cfdi/activities'],
              allowTypeImports: true,
              message: 'Import activities as types only.',
            },
          ],
        },
      ],
    },
  },
);
