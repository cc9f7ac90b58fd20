import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

export default ts.config(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', 'bench/results/', 'e2e/fixtures/', 'test-results/', 'playwright-report/', 'public/samples/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layering (src/layering.test.ts checks the whole graph): the workers and shared code never
  // import the page, and production code never imports test code.
  {
    files: ['workers/**/*.ts', 'shared/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src/**'], message: 'workers/ and shared/ must not import the page (src/); put code both use in shared/.' },
            { group: ['**/testing/**', '**/*.test', '**/*.test.ts', '**/e2e/**', 'vitest', '@playwright/test'], message: 'production code must not import test code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['**/*.test.ts', '**/testing/**', 'src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/testing/**', '**/*.test', '**/*.test.ts', '**/e2e/**', 'vitest', '@playwright/test'], message: 'production code must not import test code.' },
            { group: ['**/App.svelte', '../main', '../main.ts'], message: 'a feature folder must not import the app shell.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig } },
  },
);
