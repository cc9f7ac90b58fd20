/// <reference types="node" />
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { convertJson } from './json';
import { insertConverted, nativeRows, openWasmDuckDB, queryRows, vegaDataset } from './testing/duckdbHarness';

const dir = mkdtempSync(join(tmpdir(), 'readers-json-'));
let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await openWasmDuckDB();
}, 60_000);

async function load(name: string, text: BlobPart): Promise<void> {
  const [table] = await convertJson(new Blob([text]), {});
  await insertConverted(conn, name, table!);
}

function columns(table: string): { column_name: unknown; data_type: unknown }[] {
  return queryRows(
    conn,
    `select column_name, data_type from information_schema.columns where table_name = '${table}' order by ordinal_position`,
  ) as { column_name: unknown; data_type: unknown }[];
}

describe('convertJson', () => {
  it('converts flights-200k (one big array) and matches native DuckDB', async () => {
    const path = vegaDataset('flights-200k.json');
    const progress: number[] = [];
    const started = performance.now();
    const [table] = await convertJson(new Blob([readFileSync(path)]), { onProgress: (f) => progress.push(f) });
    const streams: Uint8Array[] = [];
    for await (const ipc of table!.batches) streams.push(ipc);
    console.log(`flights-200k.json → ${streams.length} IPC streams in ${(performance.now() - started).toFixed(0)} ms`);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    streams.forEach((ipc, i) => conn.insertArrowFromIPCStream(ipc, { name: 'flights_json', create: i === 0 }));
    const sql = (from: string) =>
      `select count(*)::varchar n, sum(delay)::varchar delay, sum(distance)::varchar distance, sum(time)::varchar AS time_sum from ${from}`;
    const wasm = queryRows(conn, sql('flights_json'));
    expect(wasm[0]!.n).toBe('200000');
    expect(wasm).toEqual(await nativeRows(sql(`read_json('${path}')`)));
    expect(columns('flights_json')).toEqual([
      { column_name: 'delay', data_type: 'BIGINT' },
      { column_name: 'distance', data_type: 'BIGINT' },
      { column_name: 'time', data_type: 'DOUBLE' },
    ]);
  }, 60_000);

  it('keeps the odd column names of cars and penguins, with their numbers and nulls', async () => {
    for (const file of ['cars.json', 'penguins.json']) {
      const path = vegaDataset(file);
      const name = file.replace('.json', '_json');
      await load(name, readFileSync(path));
      const native = await nativeRows(`select * from read_json('${path}') limit 0`);
      const expectedNames = (await nativeRows(`select column_name from (describe select * from read_json('${path}'))`)).map(
        (r) => r.column_name,
      );
      expect(native).toEqual([]);
      expect(columns(name).map((c) => c.column_name)).toEqual(expectedNames);
    }
    const numeric = (from: string, a: string, b: string) =>
      `select count(*)::varchar n, count("${a}")::varchar a, sum("${a}")::varchar sa, sum("${b}")::varchar sb from ${from}`;
    expect(queryRows(conn, numeric('cars_json', 'Horsepower', 'Miles_per_Gallon'))).toEqual(
      await nativeRows(numeric(`read_json('${vegaDataset('cars.json')}')`, 'Horsepower', 'Miles_per_Gallon')),
    );
    expect(queryRows(conn, numeric('penguins_json', 'Beak Length (mm)', 'Body Mass (g)'))).toEqual(
      await nativeRows(numeric(`read_json('${vegaDataset('penguins.json')}')`, 'Beak Length (mm)', 'Body Mass (g)')),
    );
    // ISO dates are typed as DuckDB's read_json types them.
    const nativeYear = (await nativeRows(`select column_type from (describe select * from read_json('${vegaDataset('cars.json')}')) where column_name = 'Year'`))[0]?.column_type;
    expect(nativeYear).toBe('DATE');
    expect(columns('cars_json').find((c) => c.column_name === 'Year')?.data_type).toBe('DATE');
    expect(queryRows(conn, 'select min("Year")::varchar lo, max("Year")::varchar hi from cars_json')).toEqual(
      await nativeRows(`select min("Year")::varchar lo, max("Year")::varchar hi from read_json('${vegaDataset('cars.json')}')`),
    );
  });

  it('reads NDJSON: first-seen key order, missing keys as nulls, objects as STRUCT and arrays as LIST, mixed types as text', async () => {
    const text = [
      '{"id": 1, "name": "a", "score": 1.5, "ok": true, "tags": ["x"], "meta": {"k": 1}}',
      '',
      '{"id": 2, "score": 2, "extra": "late", "ok": false, "mixed": 1}\r',
      '{"name": "c", "id": 3, "mixed": "one", "big": 12345678901234}',
    ].join('\n');
    await load('nd', text);
    expect(columns('nd')).toEqual([
      { column_name: 'id', data_type: 'BIGINT' },
      { column_name: 'name', data_type: 'VARCHAR' },
      { column_name: 'score', data_type: 'DOUBLE' },
      { column_name: 'ok', data_type: 'BOOLEAN' },
      { column_name: 'tags', data_type: 'VARCHAR[]' },
      { column_name: 'meta', data_type: 'STRUCT(k BIGINT)' },
      { column_name: 'extra', data_type: 'VARCHAR' },
      { column_name: 'mixed', data_type: 'VARCHAR' },
      { column_name: 'big', data_type: 'BIGINT' },
    ]);
    expect(queryRows(conn, 'select id, name, score, ok, tags::varchar tags, meta::varchar meta, extra, mixed, big::varchar big from nd order by id')).toEqual([
      { id: 1, name: 'a', score: 1.5, ok: true, tags: '[x]', meta: "{'k': 1}", extra: null, mixed: null, big: null },
      { id: 2, name: null, score: 2, ok: false, tags: null, meta: null, extra: 'late', mixed: '1', big: null },
      { id: 3, name: 'c', score: null, ok: null, tags: null, meta: null, extra: null, mixed: 'one', big: '12345678901234' },
    ]);
  });

  it('streams a large NDJSON file in several batches and matches native DuckDB', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 120_000; i++) lines.push(JSON.stringify({ i, half: i / 2, even: i % 2 === 0, label: `n${i % 97}` }));
    const path = join(dir, 'big.ndjson');
    writeFileSync(path, lines.join('\n') + '\n');
    const [table] = await convertJson(new Blob([readFileSync(path)]), {});
    const streams = await insertConverted(conn, 'big_nd', table!);
    expect(streams).toBeGreaterThan(1);
    const sql = (from: string) =>
      `select count(*)::varchar n, sum(i)::varchar i, sum(half)::varchar h, count_if(even)::varchar e, count(distinct label)::varchar l from ${from}`;
    expect(queryRows(conn, sql('big_nd'))).toEqual(await nativeRows(sql(`read_json('${path}', format = 'newline_delimited')`)));
  }, 60_000);

  it('takes the one array of records out of a wrapping object, else makes the object one row', async () => {
    await load('wrapped', JSON.stringify({ meta: { v: 1 }, rows: [{ a: 1 }, { a: 2, b: 'x' }] }));
    expect(queryRows(conn, 'select sum(a)::int s, count(b)::int b from wrapped')).toEqual([{ s: 3, b: 1 }]);
    await load('single', '{\n  "nodes": [{"id": 1}],\n  "links": [{"s": 1}],\n  "n": 2\n}');
    expect(queryRows(conn, 'select nodes[1].id::int nid, len(links)::int nl, links[1].s::int ls, n from single')).toEqual([{ nid: 1, nl: 1, ls: 1, n: 2 }]);
  });

  it('loads GeoJSON one row per feature with properties as a struct, queried like native DuckDB', async () => {
    const path = vegaDataset('earthquakes.json');
    await load('quakes', readFileSync(path));
    expect(columns('quakes').find((c) => c.column_name === 'properties')?.data_type).toMatch(/^STRUCT\(/);
    const q = (prefix: string, from: string) => `select count(*)::int n, round(sum(${prefix}properties.mag), 6)::varchar mag, max(${prefix}properties.place) place from ${from}`;
    expect(queryRows(conn, q('', 'quakes'))).toEqual(await nativeRows(q('f.', `(select unnest(features) as f from read_json('${path}'))`)));
    expect(queryRows(conn, "select count(*)::int n from quakes where geometry.type = 'Point' and len(geometry.coordinates) = 3")).toEqual([
      { n: queryRows(conn, 'select count(*)::int n from quakes')[0]?.n },
    ]);
  });

  it('types ISO dates and timestamps (a zone applied, as UTC), and leaves other strings alone', async () => {
    await load('when_json', JSON.stringify([{ d: '2024-01-31', t: '2024-01-31T12:34:56', z: '2024-01-31T12:34:56Z', s: 'x' }, { d: null, t: '2024-02-01 00:00:00.5', z: null, s: '2024-01-01' }]));
    expect(columns('when_json')).toEqual([
      { column_name: 'd', data_type: 'DATE' },
      { column_name: 't', data_type: 'TIMESTAMP' },
      // Native read_json types it TIMESTAMP too, holding the UTC instant.
      { column_name: 'z', data_type: 'TIMESTAMP' },
      { column_name: 's', data_type: 'VARCHAR' },
    ]);
    expect(queryRows(conn, 'select d::varchar d, t::varchar t from when_json order by t')).toEqual([
      { d: '2024-01-31', t: '2024-01-31 12:34:56' },
      { d: null, t: '2024-02-01 00:00:00.5' },
    ]);
  });

  it('keeps unusual keys verbatim and renames blank or clashing ones', async () => {
    await load('names_json', JSON.stringify([{ '': 1, a: 2, A: 3, '<script>x</script>': 4, 'say "hi"': 5, 'café ☕': 6 }]));
    expect(columns('names_json').map((c) => c.column_name)).toEqual([
      'column_1',
      'a',
      'A_2',
      '<script>x</script>',
      'say "hi"',
      'café ☕',
    ]);
  });

  it('reports where invalid JSON breaks', async () => {
    await expect(convertJson(new Blob(['[\n  {"a": 1},\n  {"a": 2,,}\n]']), {})).rejects.toThrow(/^invalid JSON at line 3, column \d+/);
    await expect(convertJson(new Blob(['[{"a": 1}']), {})).rejects.toThrow(/^invalid JSON at line 1, column 10/);
    await expect(convertJson(new Blob(['{"a": 1}\n{"a": 2}\n{"a": 3\n{"a": 4}']), {})).rejects.toThrow(
      /^invalid JSON on line 3, column \d+/,
    );
    await expect(convertJson(new Blob(['{"a": 1, "b": ]}']), {})).rejects.toThrow(/^invalid JSON at line 1, column 15: /);
    await expect(convertJson(new Blob(['[]']), {})).rejects.toThrow(/no records/);
  });
});

describe('a dictionary-shaped object', () => {
  it('with a million keys loads as one row per key within seconds, not as a million columns', async () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) big[`k${i}`] = i;
    const text = JSON.stringify(big);
    expect(text.length).toBeGreaterThan(15_000_000);
    const started = performance.now();
    await load('dict_big', text);
    console.log(`1M-key object → rows in ${(performance.now() - started).toFixed(0)} ms`);
    expect(columns('dict_big').map((c) => c.column_name)).toEqual(['key', 'value']);
    expect(queryRows(conn, "select count(*)::int n, max(value)::int m from dict_big")).toEqual([{ n: 1_000_000, m: 999_999 }]);
  }, 60_000);

  it('with object entries gets the key plus their fields; a small object stays one row', async () => {
    const people: Record<string, { age: number }> = {};
    for (let i = 0; i < 1_500; i++) people[`p${i}`] = { age: i % 90 };
    await load('dict_people', JSON.stringify(people));
    expect(columns('dict_people').map((c) => c.column_name)).toEqual(['key', 'age']);
    await load('one_row', JSON.stringify({ a: 1, b: 'x' }));
    expect(queryRows(conn, 'select count(*)::int n from one_row')).toEqual([{ n: 1 }]);
  }, 60_000);
});
