import { describe, expect, it } from 'vitest';
import type { ParseEvent, ParseRequests } from '../../protocol/parse';
import { serve } from '../../protocol/rpcServer';
import { parseHandlers } from '../../workers/parse/jobs';
import { ParseClient, progressText, type ParseProgress, type ParseWorkerLike } from './parseClient';

/** The worker's real handlers on the other end of a MessageChannel; `hold` keeps a job from answering (a long parse). */
function fakeWorker(options: { hold?: Promise<void> } = {}) {
  const spawned: { terminated: boolean }[] = [];
  const spawn = (): ParseWorkerLike => {
    const { port1, port2 } = new MessageChannel();
    const state = { terminated: false };
    spawned.push(state);
    let emit: (e: ParseEvent) => void = () => {};
    const handlers = parseHandlers((e) => emit(e));
    const held: typeof handlers = {
      project: async (p) => {
        await options.hold;
        return handlers.project(p);
      },
      notebook: async (p) => {
        await options.hold;
        return handlers.notebook(p);
      },
    };
    emit = serve<ParseRequests, ParseEvent>(port2, held).emit;
    return Object.assign(port1, {
      terminate: () => {
        state.terminated = true;
        port1.close();
        port2.close();
      },
    }) as unknown as ParseWorkerLike;
  };
  return { spawn, spawned };
}

/** A dictionary CSV of `n` entries, one per column c0…c(n-1). */
function dictionaryCsv(n: number): string {
  const lines = ['column,description,unit'];
  for (let i = 0; i < n; i++) lines.push(`c${i},"The ${i}th measure, as recorded",kg`);
  return `${lines.join('\n')}\n`;
}

describe('ParseClient over the parse worker\'s protocol', { timeout: 60_000 }, () => {
  it('reads a 5 MB dictionary off the page, with progress by bytes then parsing', async () => {
    const { spawn } = fakeWorker();
    const client = new ParseClient(spawn);
    const text = dictionaryCsv(120_000);
    expect(text.length).toBeGreaterThan(4_000_000);
    const seen: ParseProgress[] = [];
    const columns = ['c0', 'c1', 'c77', 'missing_col'];
    const out = await client.project({ files: [{ name: 'dict.csv', file: new Blob([text]) }], dataset: 'survey', columns, datasets: ['survey'] }, { onProgress: (p) => seen.push(p) });
    if (!out.ok) throw new Error(out.message);
    expect(out.result.dictionary?.dictionary.columns.find((c) => c.name === 'c77')).toMatchObject({ description: 'The 77th measure, as recorded', unit: 'kg' });
    expect(out.result.dictionary?.given.c1).toEqual(['description', 'unit']);
    expect(out.result.metrics).toEqual([]);
    expect(seen[0]).toEqual({ stage: 'reading', loaded: 0, total: new Blob([text]).size });
    expect(seen.filter((p) => p.stage === 'reading').length).toBeGreaterThan(2);
    expect(seen.at(-1)).toEqual({ stage: 'parsing', done: 1, of: 1 });
    expect(progressText({ stage: 'reading', loaded: 2_100_000, total: 5_000_000 })).toBe('Reading 2.1 of 5.0 MB…');
    expect(progressText({ stage: 'parsing', done: 11, of: 30 })).toBe('Parsing 12 of 30 files…');
    expect(progressText({ stage: 'parsing', done: 0, of: 1 })).toBe('Parsing…');
    client.dispose();
  });

  it('gives a broken file as a value with the reason, and dbt doc blocks are read in the worker', async () => {
    const client = new ParseClient(fakeWorker().spawn);
    const one = (name: string, text: string) => ({ files: [{ name, file: new Blob([text]) }], dataset: 't', columns: ['a'], datasets: ['t'] });
    const bad = await client.project(one('dict.json', '{"columns": ['));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/^dict\.json could not be read as JSON/);
    const none = await client.project(one('d.csv', 'column,description\nzzz,nothing\n'));
    expect(none).toMatchObject({ ok: false, message: expect.stringContaining("describes none of t's columns") });
    const schema = 'version: 2\nmodels:\n  - name: t\n    columns:\n      - name: a\n        description: \'{{ doc("a_doc") }}\'\n';
    const docs = new Blob(['{% docs a_doc %}The a column, from its doc block.{% enddocs %}']);
    const withDocs = await client.project({ ...one('schema.yml', schema), files: [{ name: 'schema.yml', file: new Blob([schema]) }, { name: 'docs.md', file: docs }] });
    if (!withDocs.ok) throw new Error(withDocs.message);
    expect(withDocs.result.dictionary?.dictionary.columns[0]?.description).toBe('The a column, from its doc block.');
  });

  it('reads a notebook\'s cells, and says what is wrong with a file that is not one', async () => {
    const client = new ParseClient(fakeWorker().spawn);
    const nb = { cells: [{ cell_type: 'markdown', source: ['# Title'] }, { cell_type: 'code', source: 'x = 1', metadata: { dataseer: { role: 'setup' } } }, { cell_type: 'raw', source: 'r' }], nbformat: 4 };
    const out = await client.notebook({ file: new Blob([JSON.stringify(nb)]) });
    expect(out).toEqual({ ok: true, cells: [{ kind: 'markdown', source: '# Title' }, { kind: 'code', source: 'x = 1', role: 'setup' }] });
    expect(await client.notebook({ file: new Blob(['not json']) })).toEqual({ ok: false, message: 'This file is not a notebook: it is not JSON.' });
  });

  it('Cancel ends the worker running a parse, and the next import gets a new one', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const { spawn, spawned } = fakeWorker({ hold });
    const client = new ParseClient(spawn);
    const abort = new AbortController();
    const job = { files: [{ name: 'd.csv', file: new Blob([dictionaryCsv(10)]) }], dataset: 't', columns: ['c1'], datasets: ['t'] };
    const pending = client.project(job, { signal: abort.signal });
    abort.abort();
    expect(await pending).toEqual({ ok: false, message: 'Cancelled.', cancelled: true });
    expect(spawned[0]?.terminated).toBe(true);
    release();
    const next = await client.project(job);
    expect(next.ok).toBe(true);
    expect(spawned).toHaveLength(2);
  });
});
