/**
 * Issue 37: the load report's checks on a wide JSON file and a wide sheet (600 columns, every
 * column text because of a "-" placeholder or day/month dates written as strings). Before, the
 * date checks ran a statement per column per reading (and the stats looked at only the first 200
 * text columns). Counted here by statements, not timed (timings: `node bench/run.mjs --only=table-checks`).
 */
import { describe, expect, it } from 'vitest';
import { convertJson } from '../loaders/json';
import { convertExcel } from '../loaders/excel';
import { ingestArrowStreams } from '../loaders/arrowIngest';
import { NodeEngine } from '../testing/nodeEngine';
import { countingEngine } from '../testing/countingEngine';
import { checkReaderTable } from './tableReport';
import type { ConvertedTable } from '../loaders/types';

interface FixtureScript {
  xlsxBytes(sheets: { name: string; rows: readonly (readonly (string | number | null)[])[] }[]): Uint8Array;
}
const { xlsxBytes } = (await import(/* @vite-ignore */ new URL('../../../scripts/make-bad-fixtures.mjs', import.meta.url).href)) as FixtureScript;

/** A survey's value in column `c` of row `r`: numbers with a "-" here and there, day/month dates in one column in ten. */
const cell = (r: number, c: number): string | number => (r % 17 === c % 17 ? '-' : c % 10 === 2 ? `${(r % 28) + 1}/${(r % 12) + 1}/2024` : (r * (c + 7)) % 97);
const names = (columns: number) => Array.from({ length: columns }, (_, c) => `q${c + 1}`);

function surveyJson(columns: number, rows: number): string {
  const keys = names(columns);
  return `[${Array.from({ length: rows }, (_, r) => JSON.stringify(Object.fromEntries(keys.map((k, c) => [k, cell(r, c)])))).join(',\n')}]`;
}

function surveySheet(columns: number, rows: number): Uint8Array {
  return xlsxBytes([{ name: 'Survey', rows: [names(columns), ...Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => cell(r, c)))] }]);
}

async function checked(ct: ConvertedTable, format: 'json' | 'xlsx') {
  const engine = await NodeEngine.open();
  await ingestArrowStreams(engine, ct, 'survey', 'survey_in', () => undefined);
  const seen: string[] = [];
  const took: number[] = [];
  const started = performance.now();
  const { findings } = await checkReaderTable(countingEngine(engine, seen, took), 'survey', ct, format, undefined);
  console.log(`${format} 600 columns: ${seen.length} statements, ${Math.round(performance.now() - started)} ms`);
  if (process.env.CHECKS_TRACE) seen.forEach((s, i) => console.log(Math.round(took[i]!), s.slice(0, 60).replace(/\s+/g, ' ')));
  return { findings, seen };
}

describe('table checks on a 600-column survey', { timeout: 600_000 }, () => {
  it('JSON: every column\'s placeholders and dates found in a few dozen statements', async () => {
    const [ct] = await convertJson(new Blob([surveyJson(600, 3000)]), {});
    const { findings, seen } = await checked(ct!, 'json');
    const placeholders = findings.find((f) => f.kind === 'placeholders');
    // Every number column (not the date ones) is one finding with one fix, past the 200th column too.
    expect(placeholders?.columns).toHaveLength(540);
    expect(placeholders?.fix?.options).toMatchObject({ missing: { q1: ['-'], q600: ['-'] } });
    const dates = findings.filter((f) => f.kind === 'unparsed_dates' || f.kind === 'ambiguous_dates');
    expect(dates.flatMap((f) => f.columns)).toHaveLength(60);
    expect(seen.length).toBeLessThan(40);
  });

  it('sheet: the same in a few dozen statements', async () => {
    const [ct] = await convertExcel(new Blob([surveySheet(600, 1000) as Uint8Array<ArrayBuffer>]), {});
    const { findings, seen } = await checked(ct!, 'xlsx');
    expect(findings.find((f) => f.kind === 'placeholders')?.columns).toHaveLength(540);
    expect(findings.filter((f) => f.kind === 'unparsed_dates' || f.kind === 'ambiguous_dates').flatMap((f) => f.columns)).toHaveLength(60);
    expect(seen.length).toBeLessThan(40);
  });
});
