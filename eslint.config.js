// Layering rules: shared/ imports only zod; renderer/ imports no Node built-ins; only main/electron imports electron;
// no reader reads process.env.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
const electronBan = { name: 'electron', message: 'Only main/electron/ may import electron.' };

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'assets/generated/**', '.bench/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { paths: [electronBan], patterns: [{ group: ['electron/*'], message: electronBan.message }] }],
    },
  },
  {
    files: ['main/electron/**/*.ts', 'e2e/electron.spec.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod$|\\./|\\.\\./shared/).*', message: 'shared/ imports only zod and other shared/ modules.' },
            { regex: '^\\.\\./(?!shared/)', message: 'shared/ imports only zod and other shared/ modules.' },
          ],
        },
      ],
    },
  },
  {
    // Harness homes are resolved once, from settings and the environment, and handed to the readers.
    files: ['main/sources/readers/**/*.ts'],
    ignores: ['main/sources/readers/**/*.test.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Readers are handed their homes and environment; they never read process.env.' }],
    },
  },
  {
    files: ['renderer/**/*.ts'],
    ignores: ['renderer/vite.config.ts', 'renderer/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, ...nodeBuiltins.map((name) => ({ name, message: 'renderer/ runs in the browser: no Node built-ins.' }))],
          patterns: [{ group: ['../main/*', '../../main/*', '../../../main/*'], message: 'renderer/ talks to main only through the contract.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { module: 'writable', require: 'readonly', process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
);
