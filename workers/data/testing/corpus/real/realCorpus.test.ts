/// <reference types="node" />
/**
 * The load report on CSVs in the shape of real public files it got wrong (realPatterns.ts), loaded
 * as a new user would: each must give native DuckDB's table, the findings judged right for it,
 * fixes that read as native DuckDB does with the same options, and working date SQL on its
 * time-zone columns. `npm run corpus` runs the real files themselves (manifest.json).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, openHost } from './realCorpus';
import { expectationProblems } from './expectations';
import { PATTERN_CASES } from './realPatterns';

const dir = mkdtempSync(join(tmpdir(), 'corpus-patterns-'));

describe('load report on the shapes of real files', { timeout: 120_000 }, () => {
  for (const c of PATTERN_CASES) {
    it(`${c.name} (like ${c.like}): ${c.expect.findings.length === 0 ? 'no finding' : c.expect.findings.join('; ')}`, async () => {
      const bytes = typeof c.text === 'string' ? new TextEncoder().encode(c.text) : c.text;
      const path = join(dir, c.name);
      writeFileSync(path, bytes);
      const r = await checkFile(await openHost(), path, c.name, bytes);
      expect(expectationProblems({ file: c.name, repo: '', path: '', commit: '', licence: '', kinds: [], expect: c.expect }, r)).toEqual([]);
    });
  }

  it('after the title fix, ".." and "x" in a column of numbers are placeholders with a fix (UK statistics tables)', async () => {
    const c = PATTERN_CASES.find((x) => x.name === 'uk-title-and-years.csv')!;
    const app = await openHost();
    const o = await app.call('load', { source: { kind: 'file', file: new File([c.text as string], c.name) }, options: { loadId: c.name } });
    if (!o.ok) throw new Error(o.message);
    const info = o.datasets[0]!;
    const fixed = await app.call('reread', { name: info.name, options: info.report!.findings[0]!.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.map((x) => x.name)).toEqual(['Area code', 'Area name', '2019', '2020']);
    const ph = fixed.dataset.report!.findings.find((f) => f.kind === 'placeholders')!;
    expect(ph.columns).toEqual(['2020']);
    // skip 3: the blank line above the header is skipped too (the layout check takes the last skip that starts at the header).
    expect(ph.fix!.options).toEqual({ skip: 3, header: true, nullstr: ['', '..', 'x'] });
    const numbers = await app.call('reread', { name: info.name, options: ph.fix!.options });
    if (!numbers.ok) throw new Error(numbers.message);
    expect(numbers.dataset.columns.map((x) => x.type)).toEqual(['VARCHAR', 'VARCHAR', 'BIGINT', 'BIGINT']);
  });

  it('a second fix keeps the first (votes with N/A and thousands, other columns with NA)', async () => {
    // The shape of fivethirtyeight/data off-year-turnout-2023/Virginia_turnout_2023.csv.
    const text = `locality,2023 votes,2021 votes\n${Array.from({ length: 12 }, (_, i) => `Place ${i},"${i + 1},${String(100 + i).padStart(3, '0')}",${i === 4 ? 'NA' : 900 + i}`).join('\n')}\n`;
    const app = await openHost();
    const o = await app.call('load', { source: { kind: 'file', file: new File([text], 'turnout.csv') }, options: { loadId: 'turnout' } });
    if (!o.ok) throw new Error(o.message);
    const info = o.datasets[0]!;
    const na = info.report!.findings.find((f) => f.kind === 'placeholders')!;
    const first = await app.call('reread', { name: info.name, options: na.fix!.options });
    if (!first.ok) throw new Error(first.message);
    const thousands = first.dataset.report!.findings.find((f) => f.kind === 'thousands')!;
    expect(thousands.fix!.options).toEqual({ nullstr: ['', 'NA'], thousands: ',' });
    const second = await app.call('reread', { name: info.name, options: thousands.fix!.options });
    if (!second.ok) throw new Error(second.message);
    expect(second.dataset.columns.map((c) => c.type)).toEqual(['VARCHAR', 'BIGINT', 'BIGINT']);
    expect(second.dataset.report!.findings).toEqual([]);
  });
});
