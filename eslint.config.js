import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';
import { AGENT_LAYERS } from './scripts/workerLayers.mjs';

const TEST_CODE = ['**/testing/**', '**/*.test', '**/*.test.ts', '**/e2e/**', 'vitest', '@playwright/test'];

/** A no-restricted-imports block for production files in `files`: never test code, nor `patterns`. */
function layering(files, patterns) {
  return [
    {
      files,
      ignores: ['**/*.test.ts', '**/testing/**'],
      rules: {
        'no-restricted-imports': ['error', { patterns: [{ group: TEST_CODE, message: 'production code must not import test code.' }, ...patterns] }],
      },
    },
  ];
}

/** What every file of workers/<w> is held to: itself, protocol/ and shared/ only. */
function workerPatterns(w) {
  return [
    { regex: '^(\\.\\./)+(src|workers|e2e|bench|scripts)(/|$)', message: 'a worker imports only itself, protocol/ and shared/ (never the page).' },
    {
      regex: `^(\\.\\./)+(${['agent', 'data', 'python'].filter((o) => o !== w).join('|')})(/|$)`,
      message: `workers/${w} must not import another worker's internals; put what both need in shared/.`,
    },
  ];
}

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
  // Layering (src/layering.test.ts checks the whole graph, including cycles): protocol/ imports
  // only itself; shared/ only protocol/ and shared/; the page reaches a worker only through the
  // entry Vite spawns; a worker never imports the page or another worker; production code never
  // imports test code. Patterns see the import as written, so relative climbs are matched too.
  ...layering(['protocol/**/*.ts'], [
    { regex: '^(\\.\\./)+(src|shared|workers|e2e|bench|scripts)(/|$)', message: 'protocol/ holds only the wire types and the RPC runtime: it imports nothing but itself.' },
  ]),
  ...layering(['shared/**/*.ts'], [
    { regex: '^(\\.\\./)+(src|workers|e2e|bench|scripts)(/|$)', message: 'shared/ imports only protocol/ and shared/.' },
  ]),
  ...['agent', 'data', 'python'].flatMap((w) => layering([`workers/${w}/**/*.ts`], workerPatterns(w))),
  // workers/agent's layers (AGENT_LAYERS): a folder imports only folders of lower layers, never one
  // beside it, above it, or the worker's root (the entry). Written per depth, so `../` is exact.
  ...AGENT_LAYERS.flatMap((group, i) =>
    group.flatMap((folder) => {
      const lower = AGENT_LAYERS.slice(0, i).flat();
      const barred = AGENT_LAYERS.slice(i).flat().filter((f) => f !== folder);
      const message = `workers/agent/${folder}/ imports only the agent folders of lower layers (${lower.join(', ') || 'none'}), never one beside or above it nor the entry: see AGENT_LAYERS in scripts/workerLayers.mjs.`;
      return [1, 2, 3].flatMap((depth) =>
        layering([`workers/agent/${folder}/${'*/'.repeat(depth - 1)}*.ts`], [
          ...workerPatterns('agent'),
          { regex: `^(\\.\\./){${depth}}(${barred.join('|')})(/|$)`, message },
          { regex: `^(\\.\\./){${depth}}[^./][^/]*$`, message },
        ]),
      );
    }),
  ),
  {
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['**/*.test.ts', '**/testing/**', 'src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: TEST_CODE, message: 'production code must not import test code.' },
            { group: ['**/App.svelte', '../main', '../main.ts'], message: 'a feature folder must not import the app shell.' },
            { regex: '^(\\.\\./)+workers/(?![^/]+/[^/]+\\.worker\\.ts\\?worker$)', message: "the page reaches a worker only through its entry file (src/engines/spawn.ts); put what the page needs in shared/ or protocol/, or ask the worker." },
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
