/**
 * Every expected answer is recomputed with native DuckDB over the same public files and must
 * equal the stored one; `GAUNTLET_WRITE=1` (npm run gauntlet:expected) rewrites the file instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EXAMPLE_CATEGORIES } from '../../../shared/exampleCategories';
import { expectedFrom, type ExpectedAnswer } from './expected';
import { DIFFICULTIES, QUESTIONS } from './questions';

const require = createRequire(import.meta.url);
const dataDir = join(dirname(require.resolve('vega-datasets')), '..', 'data');
const expectedPath = join(dirname(fileURLToPath(import.meta.url)), 'expected.json');
const SOURCES = {
  penguins: `read_json('${join(dataDir, 'penguins.json')}')`,
  seattle_weather: `read_csv('${join(dataDir, 'seattle-weather.csv')}')`,
  cars: `read_json('${join(dataDir, 'cars.json')}')`,
};

let instance: DuckDBInstance;
let con: DuckDBConnection;
const computed: Record<string, ExpectedAnswer> = {};

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  con = await instance.connect();
  for (const [name, source] of Object.entries(SOURCES)) await con.run(`CREATE TABLE ${name} AS SELECT * FROM ${source}`);
});

afterAll(() => {
  if (process.env.GAUNTLET_WRITE) writeFileSync(expectedPath, `{\n${Object.entries(computed).map(([id, a]) => `  ${JSON.stringify(id)}: ${JSON.stringify(a)}`).join(',\n')}\n}\n`);
  con.closeSync();
  instance.closeSync();
});

describe('the gauntlet', () => {
  it('has at least 40 questions with unique ids over every category and difficulty, some for Python, some ambiguous', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(QUESTIONS.length);
    for (const c of EXAMPLE_CATEGORIES) expect(QUESTIONS.filter((q) => q.category === c).length, c).toBeGreaterThanOrEqual(5);
    for (const d of DIFFICULTIES) expect(QUESTIONS.filter((q) => q.difficulty === d).length, d).toBeGreaterThanOrEqual(8);
    expect(QUESTIONS.filter((q) => q.python).length).toBeGreaterThanOrEqual(4);
    expect(QUESTIONS.filter((q) => q.needsCaveat).length).toBeGreaterThanOrEqual(3);
  });

  const stored = (process.env.GAUNTLET_WRITE ? {} : JSON.parse(readFileSync(expectedPath, 'utf8'))) as Record<string, ExpectedAnswer>;
  it('stores no answer for a question that no longer exists', () => {
    if (process.env.GAUNTLET_WRITE) return;
    expect(Object.keys(stored).sort()).toEqual(QUESTIONS.map((q) => q.id).sort());
  });

  for (const q of QUESTIONS) {
    it(`${q.id}: the stored answer is what native DuckDB computes`, async () => {
      const reader = await con.runAndReadAll(q.sql);
      const answer = expectedFrom(q, { columns: reader.columnNames(), rows: reader.getRowsJS() });
      computed[q.id] = answer;
      if (answer.kind === 'set') expect(answer.items.length).toBeGreaterThan(0);
      if (!process.env.GAUNTLET_WRITE) expect(stored[q.id]).toEqual(answer);
    });
  }
});
