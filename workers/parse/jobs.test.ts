/**
 * The parse worker's side of a dbt project import (issue 37): the picked files are read with
 * progress by bytes over all of them, parsed file by file, doc blocks filled in and the metrics
 * translated — everything but DuckDB's checks, which need the data (src/knowledge/projectImport.ts).
 * The project's files: shared/knowledge/testing/dbtProject.ts, read by the page's tests too.
 */
import { describe, expect, it } from 'vitest';
import type { ParseEvent, ProjectParseOutcome } from '../../protocol/parse';
import { DOCS, METRICS, NET_REVENUE, ORDER_COLUMNS, SCHEMA, SEMANTIC_ONLY } from '../../shared/knowledge/testing/dbtProject';
import { parseHandlers } from './jobs';

const file = (name: string, text: string) => ({ name, file: new Blob([text]) });

async function runProject(files: { name: string; file: Blob }[], columns = ORDER_COLUMNS, datasets = ['orders']): Promise<{ out: ProjectParseOutcome; events: ParseEvent[] }> {
  const events: ParseEvent[] = [];
  const handlers = parseHandlers((e) => events.push(e));
  const { result } = await handlers.project({ jobId: 'j1', files, dataset: 'orders', columns, datasets });
  return { out: result, events };
}

describe('a dbt project imported in the parse worker', () => {
  it('reads the YAML files and doc blocks together: the dictionary, and the metrics translated but not yet checked', async () => {
    const { out, events } = await runProject([file('orders.yml', SCHEMA), file('metrics.yml', METRICS), file('docs.md', DOCS)]);
    if (!out.ok) throw new Error(out.message);
    const r = out.result;
    expect(r.fileName).toBe('orders.yml, metrics.yml');
    expect(r.dictionary?.dictionary.row_meaning).toBe('One order');
    expect(r.dictionary?.dictionary.columns.find((c) => c.name === 'status')?.description).toBe('C completed, R refunded');
    expect(r.dictionary?.given).toEqual({ status: ['description', 'codes'], amount_cents: ['description', 'unit'] });
    // Translated, not checked: the typo is DuckDB's to find, on the page.
    expect(r.metrics).toEqual([NET_REVENUE, { name: 'typo_metric', dataset: 'orders', expression: 'sum(amount_cent)', description: '' }, { name: 'gross', dataset: 'orders', expression: 'sum(amount_cents)', description: '' }]);
    expect(r.skipped).toEqual([{ name: 'running', reason: expect.stringMatching(/cumulative/) }]);
    // Bytes over all three files, in order, ending at their sum; then the two schema files parsed one by one.
    const total = [SCHEMA, METRICS, DOCS].reduce((n, t) => n + new Blob([t]).size, 0);
    const reading = events.flatMap((e) => (e.stage === 'reading' ? [e.loaded] : []));
    expect(reading).toEqual([...reading].sort((a, b) => a - b));
    expect(reading.at(-1)).toBe(total);
    expect(events.every((e) => e.jobId === 'j1' && (e.stage !== 'reading' || e.total === total))).toBe(true);
    expect(events.filter((e) => e.stage === 'parsing')).toEqual([0, 1, 2].map((done) => ({ type: 'progress', jobId: 'j1', stage: 'parsing', done, of: 2 })));
  });

  it('says what it could not use as values: a broken file among good ones, metrics for a table not loaded, files that bring nothing', async () => {
    const { out } = await runProject([file('orders.yml', SCHEMA), file('bad.yml', 'a: [unclosed'), file('metrics.yml', METRICS)], ORDER_COLUMNS, ['customers']);
    if (!out.ok) throw new Error(out.message);
    expect(out.result.warnings).toContainEqual(expect.stringMatching(/^bad\.yml could not be read as YAML/));
    expect(out.result.metrics).toEqual([]);
    expect(out.result.skipped.map((s) => s.reason)).toContainEqual('its table orders is not loaded');

    const onlyMetrics = await runProject([file('semantic.yml', `${SEMANTIC_ONLY}\n${METRICS}`)]);
    if (!onlyMetrics.out.ok) throw new Error(onlyMetrics.out.message);
    expect(onlyMetrics.out.result.dictionary).toBeNull();
    expect(onlyMetrics.out.result.warnings).toContain('No file describes the columns of orders: only metrics are imported.');

    expect((await runProject([file('other.yml', 'models:\n  - name: customers\n    columns: [{ name: id, description: x }]')])).out).toEqual({ ok: false, message: expect.stringContaining("describes none of orders's columns") });
    expect((await runProject([file('docs.md', DOCS)])).out).toEqual({ ok: false, message: expect.stringMatching(/^Pick the schema file/) });
    expect((await runProject([file('bad.yml', 'a: [unclosed')])).out).toEqual({ ok: false, message: expect.stringMatching(/^bad\.yml could not be read as YAML/) });
  });

  it('gives a file the browser cannot read as a value naming it', async () => {
    const unreadable = {
      size: 10,
      stream: () =>
        new ReadableStream<Uint8Array>({
          pull: (c) => c.error(new Error('NotReadableError: the file changed on disk')),
        }),
    } as unknown as Blob;
    const { out } = await runProject([file('orders.yml', SCHEMA), { name: 'metrics.yml', file: unreadable }]);
    expect(out).toEqual({ ok: false, message: 'metrics.yml could not be read: NotReadableError: the file changed on disk' });
  });
});

// The envelope: a project 100× a usual one — 30 YAML files, 2,000 models' columns, 2,000 metrics.
describe('a big dbt project', { timeout: 120_000 }, () => {
  it('is read whole: every metric translated or skipped with why, the dataset\'s 100 columns described from their doc blocks', async () => {
    const cols = Array.from({ length: 100 }, (_, i) => `v_${i}`);
    let orders = 'models:\n  - name: orders\n    columns:\n';
    for (const c of cols) orders += `      - name: ${c}\n        description: "{{ doc('d_${c}') }}"\n`;
    orders += "semantic_models:\n  - name: orders\n    model: ref('orders')\n    entities: [{ name: order, type: primary, expr: v_0 }]\n    dimensions: [{ name: kind, type: categorical, expr: v_1 }]\n    measures:\n";
    for (let m = 0; m < 50; m++) orders += `      - { name: meas_${m}, agg: ${m % 2 ? 'sum' : 'average'}, expr: v_${m} }\n`;
    const files = [file('orders.yml', orders)];
    let col = 0;
    for (let f = 0; f < 29; f++) {
      let text = `models:\n  - name: stg_${f}\n    columns:\n`;
      for (let c = 0; c < 66; c++) text += `      - { name: field_${col++}, description: Field ${c} of staging model ${f} }\n`;
      text += 'metrics:\n';
      for (let j = f * 69; j < Math.min(2_000, (f + 1) * 69); j++) {
        text += j % 100 === 50 ? `  - { name: m_${j}, type: cumulative, type_params: { measure: meas_${j % 50} } }\n` : `  - name: m_${j}\n    type: simple\n    type_params: { measure: meas_${j % 50} }\n    filter: "{{ Dimension('order__kind') }} > ${j}"\n`;
      }
      files.push(file(`stg_${f}.yml`, text));
    }
    files.push(file('docs.md', cols.map((c) => `{% docs d_${c} %}The ${c} measure{% enddocs %}`).join('\n')));
    const { out, events } = await runProject(files, cols);
    if (!out.ok) throw new Error(out.message);
    expect(col + cols.length).toBe(2_014);
    expect(out.result.metrics).toHaveLength(1_980);
    expect(out.result.skipped).toHaveLength(20);
    expect(out.result.metrics[1_999 - 20]).toEqual({ name: 'm_1999', dataset: 'orders', expression: 'sum(v_49) FILTER (WHERE (v_1) > 1999)', description: '' });
    expect(out.result.dictionary?.dictionary.columns.every((c) => c.description === `The ${c.name} measure`)).toBe(true);
    expect(events.filter((e) => e.stage === 'parsing').at(-1)).toMatchObject({ done: 30, of: 30 });
  });
});
