/** Where the e2e fixtures live on disk (written by scripts/make-bad-fixtures.mjs). */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BAD_DIR = join(REPO_ROOT, 'e2e/fixtures/bad');
export const GENERATED_DIR = join(REPO_ROOT, 'e2e/fixtures/generated');
export const VEGA_DIR = join(REPO_ROOT, 'node_modules/vega-datasets/data');

export const bad = (file: string): string => join(BAD_DIR, file);
export const generated = (file: string): string => join(GENERATED_DIR, file);
export const vega = (file: string): string => join(VEGA_DIR, file);
