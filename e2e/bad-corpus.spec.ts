/**
 * The bad corpus walk: one page takes every awkward or broken file in turn. Each file either
 * loads (and then answers a query) or raises an alert naming the file and the cause; after every
 * file the earlier datasets are intact and the page still responds.
 *
 * The page is shared across the tests of this file (a walk); when a test fails Playwright starts
 * a new worker, so the walk resumes on a fresh page and later files are still judged.
 */
import { expect, sharedApp, test, type DataApp } from './support/fixtures';
import { parseDisplayedNumber } from './support/compare';
import { tableNameFor } from './support/names';
import { bad, generated } from './support/paths';

type Expectation = 'load' | 'alert' | 'either';

interface BadCase {
  file: string;
  expect: Expectation;
  why: string;
  /** Further checks once the file has loaded as `table`. */
  check?: (app: DataApp, table: string) => Promise<void>;
}

async function columnNames(app: DataApp, table: string): Promise<string[]> {
  const { rows } = await app.runSql(
    `SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
  );
  return rows.map((r) => r[0] ?? '');
}

async function count(app: DataApp, table: string): Promise<number | null> {
  return parseDisplayedNumber(await app.scalar(`SELECT count(*) FROM "${table}"`));
}

const CASES: BadCase[] = [
  { file: 'empty.csv', expect: 'either', why: 'zero bytes' },
  {
    file: 'header-only.csv',
    expect: 'either',
    why: 'a header and no rows',
    check: async (app, t) => {
      expect(await count(app, t)).toBe(0);
      expect(await columnNames(app, t)).toEqual(['alpha', 'beta', 'gamma']);
    },
  },
  { file: 'picture.csv', expect: 'either', why: 'a PNG image renamed .csv' },
  {
    file: 'ragged.csv',
    expect: 'either',
    why: 'rows with too few and too many fields',
    // Loading it as one column named "a,b,c" would be silently wrong.
    check: async (app, t) => expect((await columnNames(app, t)).length).toBeGreaterThanOrEqual(3),
  },
  {
    file: 'dup-blank-headers.csv',
    expect: 'load',
    why: 'duplicate and blank column names',
    check: async (app, t) => {
      const names = await columnNames(app, t);
      expect(names).toHaveLength(5);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(5);
      expect(names.every((n) => n.trim() !== '')).toBe(true);
      expect(await count(app, t)).toBe(2);
    },
  },
  {
    file: 'latin1.csv',
    expect: 'either',
    why: 'Latin-1 bytes (not UTF-8)',
    // If it loads, the text must be decoded, not mangled into replacement characters.
    check: async (app, t) => {
      const { rows } = await app.runSql(`SELECT name, city FROM "${t}" ORDER BY name`);
      expect(rows).toEqual([
        ['café', 'Zürich'],
        ['naïve', 'Malmö'],
      ]);
    },
  },
  {
    file: 'utf16le-bom.csv',
    expect: 'either',
    why: 'UTF-16 LE with a byte-order mark',
    check: async (app, t) => {
      expect(await columnNames(app, t)).toEqual(['name', 'city']);
      const { rows } = await app.runSql(`SELECT name, city FROM "${t}" ORDER BY name`);
      expect(rows).toEqual([
        ['café', 'Zürich'],
        ['naïve', 'Malmö'],
      ]);
    },
  },
  {
    file: 'utf8-bom.csv',
    expect: 'load',
    why: 'UTF-8 with a byte-order mark',
    check: async (app, t) => {
      expect(await columnNames(app, t)).toEqual(['name', 'city']);
      const { rows } = await app.runSql(`SELECT city FROM "${t}" WHERE name = 'café'`);
      expect(rows).toEqual([['Zürich']]);
    },
  },
  {
    file: 'quoted-newlines.csv',
    expect: 'load',
    why: 'quoted fields holding newlines, quotes and commas',
    check: async (app, t) => {
      expect(await count(app, t)).toBe(3);
      expect(await app.scalar(`SELECT note = concat('line one', chr(10), 'line two') FROM "${t}" WHERE id = 1`)).toBe('true');
      expect(await app.scalar(`SELECT note FROM "${t}" WHERE id = 3`)).toBe('a "quoted" word, with comma');
    },
  },
  { file: 'truncated.parquet', expect: 'alert', why: 'a Parquet file cut short (no footer)' },
  { file: 'text-named.parquet', expect: 'alert', why: 'CSV text named .parquet' },
  { file: 'invalid.json', expect: 'alert', why: 'malformed JSON' },
  { file: 'corrupt.xlsx', expect: 'alert', why: 'half an .xlsx archive' },
  {
    file: 'tabbed.tsv',
    expect: 'load',
    why: 'tab-separated values',
    check: async (app, t) => {
      expect(await columnNames(app, t)).toEqual(['city', 'country', 'population']);
      expect(parseDisplayedNumber(await app.scalar(`SELECT sum(population) FROM "${t}"`))).toBe(709037 + 10092000 + 2192229);
    },
  },
  {
    file: 'odd-names.csv',
    expect: 'load',
    why: 'column names with spaces, quotes, unicode and markup',
    check: async (app, t) => {
      expect(await columnNames(app, t)).toEqual(['first name', 'say "hi"', 'naïve 列 ü', '<img src=x onerror=alert(1)>']);
      expect(await app.scalar(`SELECT "say ""hi""" FROM "${t}" WHERE "first name" = 'Ada'`)).toBe('hello');
    },
  },
  // Last: the UI is known to slow down with 5,000 columns listed, which would slow every later step.
  {
    file: 'wide-5000.csv',
    expect: 'load',
    why: '5,000 columns',
    check: async (app, t) => {
      expect(parseDisplayedNumber(await app.scalar(`SELECT count(*) FROM information_schema.columns WHERE table_name = '${t}'`))).toBe(5000);
      expect(parseDisplayedNumber(await app.scalar(`SELECT sum(c5000) FROM "${t}"`))).toBe(15000 + 25000 + 35000);
    },
  },
];

/** Datasets this walk has loaded so far (besides penguins), which must all stay listed. */
let loaded: string[] = [];

test.describe('bad corpus walk', () => {
  const shared = sharedApp(async (app) => {
    await app.loadSample('penguins');
    loaded = [];
  });

  for (const c of CASES) {
    const verdict = c.expect === 'either' ? 'loads or alerts' : c.expect === 'load' ? 'loads' : 'alerts';
    test(`${c.file} — ${c.why} — ${verdict}`, async () => {
      const app = shared();
      const table = tableNameFor(c.file);
      await app.addFiles(bad(c.file));
      const outcome = await app.waitForLoad(c.file, table);

      if (c.expect === 'load') expect(outcome, `${c.file} should load`).toEqual({ kind: 'loaded', name: table });
      if (c.expect === 'alert') expect(outcome.kind, `${c.file} should be refused with an alert`).toBe('alert');

      test.info().annotations.push({ type: 'outcome', description: outcome.kind === 'alert' ? `alert: ${outcome.text}` : `loaded as ${table}` });
      if (outcome.kind === 'alert') {
        // The alert names the file and says why (more than just the name).
        expect(outcome.text).toContain(c.file);
        expect(outcome.text.replace(c.file, '').replace(/could not load|:|\s/gi, '').length, `a cause in: ${outcome.text}`).toBeGreaterThan(8);
        await app.dismissLoadError(c.file);
        await expect(app.removeButton(table)).toHaveCount(0);
      } else {
        expect(await count(app, table)).not.toBeNull();
        await c.check?.(app, table);
        loaded.push(table);
      }

      // Earlier datasets intact, page responsive, nothing thrown.
      expect(await count(app, 'penguins')).toBe(344);
      for (const t of loaded) await expect(app.removeButton(t)).toBeVisible();
      await app.expectResponsive();
      expect(app.pageErrors, 'uncaught errors in the page').toEqual([]);
    });
  }

  test('a batch mixing broken and good files loads the good ones and alerts for the rest', async () => {
    const app = shared();
    await app.addFiles([bad('invalid.json'), generated('keep-me.csv'), bad('truncated.parquet')]);
    await app.expectDataset('keep_me');
    await expect(app.loadError('invalid.json')).toHaveCount(1, { timeout: 60_000 });
    await expect(app.loadError('truncated.parquet')).toHaveCount(1, { timeout: 60_000 });
    expect(parseDisplayedNumber(await app.scalar('SELECT sum(v) FROM keep_me'))).toBe(42);
    await app.dismissLoadError('invalid.json');
    await app.dismissLoadError('truncated.parquet');
    expect(await count(app, 'penguins')).toBe(344);
    expect(app.pageErrors, 'uncaught errors in the page').toEqual([]);
  });
});
