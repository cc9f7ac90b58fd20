import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DataEvent, DataPeerRequests, DataRequests, LoadOutcome, QueryOutcome } from '../../../protocol/data';
import type { Handlers } from '../../../protocol/rpcServer';
import { RpcClient } from '../../../protocol/rpcClient';
import { DataHost, type HostDeps, type Readers } from './host';
import { convertJson } from '../loaders/json';
import { convertExcel, listExcelSheets } from '../loaders/excel';
import { makeXlsx } from '../loaders/testing/xlsxFixture';
import { DatasetStorage } from './storage';
import { NodeEngine } from '../testing/nodeEngine';
import { HEADROOM_BYTES } from '../engine/footprint';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: convertExcel, json: convertJson, listExcelSheets };

let engineFactory: () => Promise<NodeEngine>;
beforeAll(() => {
  engineFactory = () => NodeEngine.open();
});
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

function makeHost(over: Partial<HostDeps> = {}) {
  const events: DataEvent[] = [];
  const host = new DataHost({ boot: engineFactory, openStorage: () => DatasetStorage.open({ useOpfs: false }), readers, ...over });
  host.addListener((e) => events.push(e));
  const h: Handlers<DataRequests> = host.handlers();
  const call = async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> => {
    const handler = h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }> | { result: DataRequests[K]['res'] };
    return (await handler(payload)).result;
  };
  const loadBytes = (name: string, bytes: BlobPart) => call('load', { source: { kind: 'file', file: new File([bytes], name) }, options: { loadId: name } });
  return { host, events, call, loadBytes };
}

const okDatasets = (o: LoadOutcome) => {
  if (!o.ok) throw new Error(`load failed: ${o.message}`);
  return o.datasets;
};
const rows = (o: QueryOutcome) => {
  if (!o.ok) throw new Error(o.message);
  return tableFromIPC(o.result.ipc).toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
};

describe('DataHost on the real DuckDB-WASM engine', { timeout: 60_000 }, () => {
  it('loads CSV, TSV, pasted text and names them by the contract rule', async () => {
    const { call, loadBytes, events } = makeHost();
    const init = await call('init', {});
    expect(init.duckdbVersion).toMatch(/^v1\./);
    const [csv] = okDatasets(await loadBytes('Seattle-Weather 2024.csv', 'date,temp,city\n2024-01-01,5.5,Seattle\n2024-01-02,7,Portland\n'));
    expect(csv).toMatchObject({ name: 'seattle_weather_2024', rowCount: 2, format: 'csv', persisted: true });
    expect(csv?.columns).toEqual([
      { name: 'date', type: 'DATE' },
      { name: 'temp', type: 'DOUBLE' },
      { name: 'city', type: 'VARCHAR' },
    ]);
    const [tsv] = okDatasets(await loadBytes('t.tsv', 'a\tb\n1\tx,y\n'));
    expect(tsv?.columns.map((c) => c.name)).toEqual(['a', 'b']);
    const [again] = okDatasets(await loadBytes('seattle-weather 2024.csv', 'x\n1\n'));
    expect(again?.name).toBe('seattle_weather_2024_2');
    const pasted = okDatasets(await call('load', { source: { kind: 'text', text: 'k,v\n1,2\n3,4\n', fileName: 'pasted.csv' }, options: { loadId: 'p' } }));
    expect(pasted[0]).toMatchObject({ name: 'pasted', rowCount: 2 });
    expect(events.some((e) => e.type === 'progress' && e.phase === 'parsing' && e.loadId === 't.tsv')).toBe(true);
    expect(events.some((e) => e.type === 'progress' && e.phase === 'storing')).toBe(true);
    const lists = events.filter((e) => e.type === 'datasets');
    // The list is announced once per load (the load's answer names only its own tables).
    expect(lists).toHaveLength(4);
    const lastList = lists.at(-1);
    expect(lastList?.type === 'datasets' && lastList.datasets.map((d) => d.name)).toEqual(['seattle_weather_2024', 't', 'seattle_weather_2024_2', 'pasted']);
  });

  it('handles encodings: Latin-1, UTF-8 BOM, UTF-16 LE and BE', async () => {
    const { call, loadBytes } = makeHost();
    const latin1 = Uint8Array.from([...'name,city\nJos\xe9,M\xfcnchen\n'].map((c) => c.charCodeAt(0)));
    const l = await loadBytes('latin.csv', latin1);
    expect(l.ok && l.warnings.join()).toMatch(/Latin-1/);
    expect(rows(await call('consoleQuery', { sql: 'SELECT * FROM latin' }))).toEqual([{ name: 'José', city: 'München' }]);
    okDatasets(await loadBytes('bom.csv', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('id,v\n1,é\n')])));
    expect(rows(await call('consoleQuery', { sql: 'SELECT * FROM bom' }))).toEqual([{ id: 1, v: 'é' }]);
    const le = Uint8Array.from([0xff, 0xfe, ...[...'id,v\n1,é\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
    okDatasets(await loadBytes('le.csv', le));
    expect(rows(await call('consoleQuery', { sql: 'SELECT * FROM le' }))).toEqual([{ id: 1, v: 'é' }]);
    const be = Uint8Array.from([0xfe, 0xff, ...[...'id,v\n1,é\n'].flatMap((c) => [0, c.charCodeAt(0)])]);
    okDatasets(await loadBytes('be.csv', be));
    expect(rows(await call('consoleQuery', { sql: 'SELECT * FROM be' }))).toEqual([{ id: 1, v: 'é' }]);
  });

  it('loads awkward CSVs sensibly and refuses bad ones clearly, keeping earlier datasets', async () => {
    const { call, loadBytes } = makeHost();
    okDatasets(await loadBytes('good.csv', 'a\n1\n'));
    const ragged = okDatasets(await loadBytes('ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n'));
    expect(ragged[0]?.rowCount).toBe(3);
    expect(ragged[0]?.columns.length).toBe(4);
    const quoted = okDatasets(await loadBytes('quoted.csv', 'a,b\n1,"line1\nline2"\n2,x\n'));
    expect(quoted[0]?.rowCount).toBe(2);
    const dup = okDatasets(await loadBytes('dup.csv', 'a,a,,b\n1,2,3,4\n'));
    expect(new Set(dup[0]?.columns.map((c) => c.name)).size).toBe(4);
    const headerOnly = await loadBytes('header.csv', 'x,y,z\n');
    expect(headerOnly.ok && headerOnly.datasets[0]?.rowCount).toBe(0);
    expect(headerOnly.ok && headerOnly.warnings.join()).toMatch(/no rows/);
    expect(await loadBytes('empty.csv', '')).toEqual({ ok: false, fileName: 'empty.csv', message: 'empty.csv is empty (0 bytes).', suggestion: expect.any(String) });
    const png = await loadBytes('photo.csv', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]));
    expect(png).toMatchObject({ ok: false, fileName: 'photo.csv' });
    expect(!png.ok && png.message).toMatch(/PNG image/);
    const late = ['id,val', ...Array.from({ length: 25_000 }, (_, i) => `${i},${i}`), 'x,abc'].join('\n');
    const lateOutcome = await loadBytes('late.csv', late);
    expect(okDatasets(lateOutcome)[0]?.rowCount).toBe(25_001);
    expect((await call('list', {})).map((d) => d.name)).toContain('good');
  });

  it('loads 5,000 columns', async () => {
    const { loadBytes } = makeHost();
    const header = Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',');
    const row = Array.from({ length: 5000 }, (_, i) => i).join(',');
    const [wide] = okDatasets(await loadBytes('wide.csv', `${header}\n${row}\n${row}\n`));
    expect(wide?.columns.length).toBe(5000);
    expect(wide?.rowCount).toBe(2);
  });

  it('loads JSON through the readers', async () => {
    const { loadBytes } = makeHost();
    const [j] = okDatasets(await loadBytes('cars.json', JSON.stringify([{ a: 1, b: 'x' }, { a: 2, b: 'y' }])));
    expect(j).toMatchObject({ name: 'cars', format: 'json', rowCount: 2 });
  });

  it('queries: truncation, numbers for BIGINT, errors as values, multiple statements', async () => {
    const { call } = makeHost();
    const q = await call('consoleQuery', { sql: 'SELECT range AS i, range * 2 AS j FROM range(25000)', maxRows: 3000 });
    expect(q.ok).toBe(true);
    if (!q.ok) return;
    expect(q.result.rowCount).toBe(3000);
    expect(q.result.truncated).toBe(true);
    expect(q.result.columns).toEqual([
      { name: 'i', type: 'BIGINT' },
      { name: 'j', type: 'BIGINT' },
    ]);
    const t = tableFromIPC(q.result.ipc);
    expect(t.numRows).toBe(3000);
    expect(typeof t.get(2999)?.toJSON().i).toBe('number');
    const exact = await call('consoleQuery', { sql: 'SELECT * FROM range(10)', maxRows: 10 });
    expect(exact.ok && exact.result.truncated).toBe(false);
    const bad = await call('consoleQuery', { sql: 'SELEC 1' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/syntax error at or near "SELEC"/);
    expect(rows(await call('consoleQuery', { sql: "CREATE TABLE s AS SELECT 1 AS x; INSERT INTO s VALUES (2); SELECT sum(x) AS t, 'a;b' AS c FROM s" }))).toEqual([{ t: 3, c: 'a;b' }]);
    const empty = await call('consoleQuery', { sql: 'SELECT 1 AS x WHERE false' });
    expect(empty.ok && empty.result.rowCount).toBe(0);
    expect(empty.ok && tableFromIPC(empty.result.ipc).schema.fields.map((f) => f.name)).toEqual(['x']);
    expect(await call('consoleQuery', { sql: '  ;  ' })).toEqual({ ok: false, message: 'The query is empty.' });
  });

  it('pages, profiles and assesses', async () => {
    const { call } = makeHost();
    const csv = ['n,label,d', ...Array.from({ length: 100 }, (_, i) => `${i},${i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : ''},2024-01-${String((i % 28) + 1).padStart(2, '0')}`)].join('\n');
    okDatasets(await call('load', { source: { kind: 'text', text: csv, fileName: 'p.csv' }, options: { loadId: 'x' } }));
    const page = await call('page', { name: 'p', offset: 10, limit: 5 });
    expect(page.rowCount).toBe(5);
    expect(tableFromIPC(page.ipc).toArray()[0].toJSON().n).toBe(10);
    expect(page.columns[0]).toEqual({ name: 'n', type: 'BIGINT' });
    const prof = await call('profile', { name: 'p' });
    expect(prof.rowCount).toBe(100);
    const [n, label, d] = prof.columns;
    expect(n).toMatchObject({ name: 'n', nulls: 0, distinct: 100, min: 0, max: 99, mean: 49.5 });
    expect(n?.std).toBeCloseTo(29.011, 2);
    expect(n?.histogram?.length).toBe(12);
    expect(n?.histogram?.reduce((s, b) => s + b.count, 0)).toBe(100);
    expect(n?.histogram?.[0]).toMatchObject({ lo: 0, count: 9 });
    expect(label).toMatchObject({ nulls: 33, distinct: 2 });
    expect(label?.top).toEqual([
      { value: 'a', count: 34 },
      { value: 'b', count: 33 },
    ]);
    expect(d).toMatchObject({ type: 'DATE', min: '2024-01-01', max: '2024-01-28' });
    expect(await call('assess', { sql: 'DELETE FROM p WHERE n > 3' })).toEqual({ destructive: true, datasets: ['p'], statement: 'DELETE FROM p WHERE n > 3' });
    expect((await call('assess', { sql: 'SELECT * FROM p' })).destructive).toBe(false);
  });

  it('keeps the list in step with SQL drops, renames and deletes', async () => {
    const { call, events } = makeHost();
    okDatasets(await call('load', { source: { kind: 'text', text: 'a\n1\n2\n', fileName: 'one.csv' }, options: { loadId: '1' } }));
    okDatasets(await call('load', { source: { kind: 'text', text: 'a\n1\n', fileName: 'two.csv' }, options: { loadId: '2' } }));
    await call('consoleQuery', { sql: 'DELETE FROM one WHERE a = 1' });
    expect((await call('list', {})).find((d) => d.name === 'one')?.rowCount).toBe(1);
    await call('consoleQuery', { sql: 'ALTER TABLE one RENAME TO uno' });
    expect((await call('list', {})).map((d) => d.name)).toEqual(['uno', 'two']);
    const before = events.length;
    await call('consoleQuery', { sql: 'DROP TABLE two' });
    expect((await call('list', {})).map((d) => d.name)).toEqual(['uno']);
    expect(events.slice(before).some((e) => e.type === 'datasets')).toBe(true);
  });

  it('persists across a restart; rename and remove update storage', async () => {
    const first = makeHost();
    await first.call('init', {});
    okDatasets(await first.loadBytes('keep.csv', 'a,b\n1,2\n'));
    okDatasets(await first.loadBytes('gone.csv', 'a\n1\n'));
    okDatasets(await first.loadBytes('cars.json', '[{"x":1},{"x":2}]'));
    await first.call('rename', { from: 'keep', to: 'Kept Data' });
    await first.call('remove', { name: 'gone' });

    const second = makeHost();
    await second.call('init', {});
    const init = { datasets: await second.call('list', {}) };
    expect(init.datasets.map((d) => [d.name, d.rowCount, d.persisted])).toEqual([
      ['kept_data', 1, true],
      ['cars', 2, true],
    ]);
    expect(second.events.some((e) => e.type === 'progress' && e.phase === 'restoring')).toBe(true);
    // Every saved source is named once (with its datasets and size) before the first is restored,
    // and each says when it is back, by the id the announcement gave it.
    const announced = second.events.flatMap((e) => (e.type === 'restoring' ? [e.sources] : []));
    expect(announced).toHaveLength(1);
    expect(announced[0]?.map((s) => [s.fileName, s.datasets, s.sizeBytes])).toEqual([
      ['keep.csv', ['kept_data'], 8],
      ['cars.json', ['cars'], 17],
    ]);
    const firstProgress = second.events.findIndex((e) => e.type === 'progress' && e.loadId.startsWith('restore:'));
    expect(second.events.findIndex((e) => e.type === 'restoring')).toBeLessThan(firstProgress);
    const progress = second.events.flatMap((e) => (e.type === 'progress' && e.loadId.startsWith('restore:') ? [e] : []));
    expect(progress.filter((e) => e.phase === 'done').map((e) => e.loadId)).toEqual(announced[0]?.map((s) => s.loadId));
    // The list is announced once per source brought back, and not once more at the end.
    expect(second.events.filter((e) => e.type === 'datasets')).toHaveLength(2);
    expect(rows(await second.call('consoleQuery', { sql: 'SELECT b FROM kept_data' }))).toEqual([{ b: 2 }]);
    const storage = await DatasetStorage.open({ useOpfs: false });
    expect((await storage.entries()).map((e) => e.name)).toEqual(['kept_data', 'cars']);
  });

  it('a CSV too big for memory becomes a view over the file: queried in place, renamed and removed, never saved', async () => {
    const { call, loadBytes } = makeHost({ memoryCeilingBytes: HEADROOM_BYTES + 1 });
    await call('init', {});
    const csv = ['id,city,pop', ...Array.from({ length: 500 }, (_, i) => `${i},c${i % 7},${i * 10}`)].join('\n');
    const out = await loadBytes('huge.csv', csv);
    expect(out.ok && out.datasets[0]).toMatchObject({ name: 'huge', view: true, persisted: false, rowCount: 500 });
    expect(out.ok && out.warnings.join(' ')).toMatch(/is a view over the file: every query reads the file again/);
    expect(out.ok && out.datasets[0]?.report?.attached).toMatch(/^Attached as a view: the file is bigger than this tab's memory/);
    expect(rows(await call('consoleQuery', { sql: 'SELECT count(DISTINCT city)::INTEGER AS n, sum(pop)::DOUBLE AS s FROM huge' }))).toEqual([{ n: 7, s: 1247500 }]);
    expect(rows(await call('consoleQuery', { sql: "SELECT count(*)::INTEGER AS n FROM duckdb_views() WHERE view_name = 'huge'" }))).toEqual([{ n: 1 }]);
    await call('rename', { from: 'huge', to: 'big_view' });
    expect(rows(await call('consoleQuery', { sql: 'SELECT max(id)::INTEGER AS m FROM big_view' }))).toEqual([{ m: 499 }]);
    await call('remove', { name: 'big_view' });
    expect(await call('list', {})).toEqual([]);
    // Formats read by JavaScript readers cannot be views: still refused, with the advice.
    const json = await loadBytes('huge.json', JSON.stringify([{ a: 1 }]));
    expect(json.ok).toBe(false);

    const again = makeHost();
    await again.call('init', {});
    expect(await again.call('list', {})).toEqual([]);
  });

  it('a big file answers before its copy is saved: marked saving, then saved, and back after a restart', async () => {
    const { call, loadBytes, events } = makeHost();
    await call('init', {});
    const line = 'x'.repeat(90);
    const csv = ['id,text', ...Array.from({ length: 95_000 }, (_, i) => `${i},${line}`)].join('\n');
    expect(csv.length).toBeGreaterThan(8 * 1024 * 1024);
    const out = await loadBytes('big.csv', csv);
    expect(out.ok && out.datasets[0]).toMatchObject({ name: 'big', saving: true, persisted: false, rowCount: 95_000 });
    await vi.waitFor(
      () => {
        // The list said it was saving; its own entry then says it is saved.
        const last = events.filter((e) => e.type === 'dataset').at(-1);
        expect(last?.type === 'dataset' && last.dataset).toMatchObject({ name: 'big', persisted: true });
      },
      { timeout: 30_000 },
    );
    expect((await call('list', {})).find((d) => d.name === 'big')?.saving).toBeUndefined();
    const again = makeHost();
    await again.call('init', {});
    expect(rows(await again.call('consoleQuery', { sql: 'SELECT count(*)::INTEGER AS n FROM big' }))).toEqual([{ n: 95_000 }]);
  });

  it('a load cancelled before its turn makes nothing and answers cancelled, not as an error', async () => {
    const { call } = makeHost();
    await call('init', {});
    const first = call('load', { source: { kind: 'file', file: new File(['a\n1\n'], 'first.csv') }, options: { loadId: 'l1' } });
    const second = call('load', { source: { kind: 'file', file: new File(['b\n2\n'], 'second.csv') }, options: { loadId: 'l2' } });
    await call('cancelLoad', { loadId: 'l2' });
    expect((await first).ok).toBe(true);
    expect(await second).toMatchObject({ ok: false, cancelled: true, fileName: 'second.csv' });
    expect((await call('list', {})).map((d) => d.name)).toEqual(['first']);
    expect(rows(await call('consoleQuery', { sql: "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name LIKE '%second%'" }))).toEqual([{ n: 0 }]);
  });

  it('a second tab (no write claim) restores the saved datasets but never writes, deletes or sweeps them', async () => {
    const writer = makeHost();
    await writer.call('init', {});
    okDatasets(await writer.loadBytes('shared.csv', 'a\n1\n2\n'));

    let freed: (() => void) | undefined;
    const reader = makeHost({
      claimWrites: async (whenFreed) => {
        freed = whenFreed;
        return false;
      },
    });
    const init = await reader.call('init', {});
    expect(init.readOnlyStorage).toBe(true);
    expect((await reader.call('list', {})).map((d) => [d.name, d.persisted])).toEqual([['shared', true]]);
    const added = await reader.loadBytes('mine.csv', 'b\n3\n');
    expect(added.ok && added.warnings.join(' ')).toMatch(/open in another tab/);
    expect(added.ok && added.datasets.find((d) => d.name === 'mine')?.persisted).toBe(false);
    await reader.call('consoleQuery', { sql: 'DELETE FROM shared WHERE a = 1' });
    // The writer's tab closes: the reader is told, and still writes nothing until it is reloaded.
    freed?.();
    expect(reader.events.some((e) => e.type === 'storageFreed')).toBe(true);
    await reader.call('remove', { name: 'shared' });

    // The writer's saved dataset is untouched: same entry, same rows after a restart.
    const storage = await DatasetStorage.open({ useOpfs: false });
    expect((await storage.entries()).map((e) => e.name)).toEqual(['shared']);
    const again = makeHost();
    await again.call('init', {});
    expect(rows(await again.call('consoleQuery', { sql: 'SELECT count(*)::INTEGER AS n FROM shared' }))).toEqual([{ n: 2 }]);
  });

  it('restores from snapshots without parsing the source again, with SQL edits kept', async () => {
    const first = makeHost();
    await first.call('init', {});
    okDatasets(await first.loadBytes('edits.csv', 'id,v\n1,10\n2,20\n3,30\n'));
    okDatasets(await first.loadBytes('Book.json', '[{"when":"2024-02-29","big":9007199254740993,"tags":["a","b"]}]'));
    await first.host.snapshotsSettled();
    await first.call('consoleQuery', { sql: "UPDATE edits SET v = v + 1 WHERE id = 2; DELETE FROM edits WHERE id = 3; INSERT INTO edits VALUES (4, 40)" });
    await first.host.snapshotsSettled();
    const before = await first.call('list', {});
    // The sources are gone: only the snapshots can bring the tables back.
    const storage = await DatasetStorage.open({ useOpfs: false });
    for (const e of await storage.entries()) await storage.sources.delete(e.sourceKey);

    const second = makeHost();
    await second.call('init', {});
    const after = await second.call('list', {});
    expect(after.map((d) => [d.name, d.rowCount, d.columns])).toEqual(before.map((d) => [d.name, d.rowCount, d.columns]));
    expect(rows(await second.call('consoleQuery', { sql: 'SELECT id, v FROM edits ORDER BY id' }))).toEqual([
      { id: 1, v: 10 },
      { id: 2, v: 21 },
      { id: 4, v: 40 },
    ]);
    expect(rows(await second.call('consoleQuery', { sql: "SELECT tags[2] AS second, typeof(\"when\") AS t FROM book" }))).toEqual([{ second: 'b', t: 'DATE' }]);
    expect(second.events.some((e) => e.type === 'progress' && e.phase === 'parsing')).toBe(false);
  });

  it('a quota error keeps the dataset working, unpersisted, with a warning', async () => {
    const full = async () => {
      const storage = await DatasetStorage.open({ useOpfs: false });
      storage.sources.put = async () => {
        const e = new Error('no space');
        e.name = 'QuotaExceededError';
        throw e;
      };
      return storage;
    };
    const { loadBytes, call } = makeHost({ openStorage: full });
    const outcome = await loadBytes('big.csv', 'a\n1\n');
    expect(outcome.ok && outcome.datasets[0]?.persisted).toBe(false);
    expect(outcome.ok && outcome.warnings.join()).toMatch(/will not survive a reload: the browser storage quota is full/);
    expect(rows(await call('consoleQuery', { sql: 'SELECT a FROM big' }))).toEqual([{ a: 1 }]);
    expect(await (await DatasetStorage.open({ useOpfs: false })).entries()).toEqual([]);
  });

  it('loads Excel sheets as <stem>_<sheet>, one sheet as <stem>, and restores them', async () => {
    const first = makeHost();
    const book = makeXlsx([
      { name: 'Q1 2024', rows: [['a', 'b'], [1, 'x'], [2, 'y']] },
      { name: 'Notes', rows: [['n'], [5]] },
    ]);
    const sheets = okDatasets(await first.loadBytes('Budget.xlsx', book));
    expect(sheets.map((d) => [d.name, d.sheet, d.rowCount])).toEqual([
      ['budget_q1_2024', 'Q1 2024', 2],
      ['budget_notes', 'Notes', 1],
    ]);
    expect(await first.call('excelSheets', { file: new File([book], 'Budget.xlsx') })).toEqual({ sheets: ['Q1 2024', 'Notes'] });
    const one = okDatasets(await first.call('load', { source: { kind: 'file', file: new File([book], 'Plan.xlsx') }, options: { loadId: 'p', sheets: ['Notes'] } }));
    expect(one.map((d) => d.name)).toEqual(['plan']);
    await first.call('remove', { name: 'budget_notes' });
    const second = makeHost();
    await second.call('init', {});
    const init = { datasets: await second.call('list', {}) };
    expect(init.datasets.map((d) => [d.name, d.sheet, d.rowCount])).toEqual([
      ['budget_q1_2024', 'Q1 2024', 2],
      ['plan', 'Notes', 1],
    ]);
  });

  it('serves the same requests on a connected port, with events', async () => {
    const { call, loadBytes } = makeHost();
    const channel = new MessageChannel();
    await call('connect', { port: channel.port1, peer: 'agent' });
    const seen: DataEvent[] = [];
    const other = new RpcClient<DataPeerRequests, DataEvent>(channel.port2, (e) => seen.push(e));
    okDatasets(await loadBytes('shared.csv', 'a\n1\n'));
    expect((await other.call('list', {})).map((d) => d.name)).toEqual(['shared']);
    const q = await other.call('modelQuery', { sql: 'SELECT a FROM shared' });
    expect(rows(q)).toEqual([{ a: 1 }]);
    expect(seen.some((e) => e.type === 'datasets')).toBe(true);
    other.dispose();
    channel.port1.close();
  });

  it("a peer's new port replaces its old one: the old port is closed and hears no more events", async () => {
    const { call, loadBytes } = makeHost();
    const first = new MessageChannel();
    await call('connect', { port: first.port1, peer: 'agent' });
    const oldSeen: DataEvent[] = [];
    const old = new RpcClient<DataPeerRequests, DataEvent>(first.port2, (e) => oldSeen.push(e));
    expect(await old.call('list', {})).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    // What it heard while it was the port (the start-up restore's end) is not the point here.
    oldSeen.length = 0;
    const second = new MessageChannel();
    await call('connect', { port: second.port1, peer: 'agent' });
    const seen: DataEvent[] = [];
    const fresh = new RpcClient<DataPeerRequests, DataEvent>(second.port2, (e) => seen.push(e));
    okDatasets(await loadBytes('after.csv', 'a\n1\n'));
    expect((await fresh.call('list', {})).map((d) => d.name)).toEqual(['after']);
    await expect(old.call('list', {}, [], { timeoutMs: 300 })).rejects.toThrow(/no answer/);
    expect(seen.some((e) => e.type === 'datasets')).toBe(true);
    expect(oldSeen).toEqual([]);
    old.dispose();
    fresh.dispose();
    second.port2.close();
  });

  it('refuses a rename onto an existing table', async () => {
    const { call, loadBytes } = makeHost();
    okDatasets(await loadBytes('a.csv', 'x\n1\n'));
    okDatasets(await loadBytes('b.csv', 'x\n1\n'));
    await expect(call('rename', { from: 'a', to: 'b' })).rejects.toThrow('A table named b already exists.');
  });
});

describe("another worker's port", { timeout: 60_000 }, () => {
  it('is a narrow query channel: reads work, loads and dataset changes do not', async () => {
    const { host, call, loadBytes } = makeHost();
    await call('init', {});
    okDatasets(await loadBytes('t.csv', 'a\n1\n2\n'));
    const channel = new MessageChannel();
    await call('connect', { port: channel.port2, peer: 'python' });
    const seen: DataEvent[] = [];
    const other = new RpcClient<DataPeerRequests, DataEvent>(channel.port1, (e) => seen.push(e));
    // A peer's JavaScript can post any request name, the page's too.
    const raw = other as unknown as RpcClient<DataRequests, DataEvent>;
    try {
      // The list as it is arrives on connecting: the peer need not ask before each run.
      await vi.waitFor(() => expect(seen[0]?.type === 'datasets' && seen[0].datasets.map((d) => d.name)).toEqual(['t']));
      expect(rows(await other.call('modelQuery', { sql: 'SELECT sum(a) AS s FROM t' }))).toEqual([{ s: 3 }]);
      expect((await other.call('list', {})).map((d) => d.name)).toEqual(['t']);
      const drop = await other.call('modelQuery', { sql: 'DROP TABLE t' });
      expect(drop.ok).toBe(false);
      await expect(raw.call('load', { source: { kind: 'text', text: 'a\n1\n', fileName: 'x.csv' }, options: { loadId: 'x' } })).rejects.toThrow(/unknown request load/);
      await expect(raw.call('remove', { name: 't' })).rejects.toThrow(/unknown request/);
      await expect(raw.call('consoleQuery', { sql: 'DROP TABLE t' })).rejects.toThrow(/unknown request/);
      expect(rows(await call('consoleQuery', { sql: 'SELECT count(*) AS n FROM t' }))).toEqual([{ n: 2 }]);
    } finally {
      other.dispose('done');
      channel.port1.close();
      void host;
    }
  });
});

describe('warm-up', { timeout: 60_000 }, () => {
  it('runs once after the restore, before a load that comes after it, and a failing one changes nothing', async () => {
    const order: string[] = [];
    const warmUp = vi.fn(async () => {
      order.push('warm-up');
      throw new Error('no warm-up today');
    });
    const { call, loadBytes } = makeHost({ warmUp });
    await call('init', {});
    await call('init', {});
    const loaded = await loadBytes('after.csv', 'a,b\n1,2\n');
    order.push('load');
    expect(loaded.ok).toBe(true);
    expect(warmUp).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['warm-up', 'load']);
  });
});
