import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { convertExcel, listExcelSheets } from './excel';
import { insertConverted, openWasmDuckDB, queryRows } from './testing/duckdbHarness';
import { makeXlsx, type FixtureCell } from './testing/xlsxFixture';

// Excel serial day numbers (1900 system): 45292 is 2024-01-01.
const JAN_1_2024 = 45292;

const sales: FixtureCell[][] = [
  [],
  [null, null, null],
  ['Name', 'Amount', 'Units', 'When', 'Active', null, 'Name', 'Note'],
  ['Alice', 12.5, 3, { date: JAN_1_2024 }, true, null, 'dup', { inline: '<script>alert(1)</script>' }],
  ['Bob', 7, null, { date: JAN_1_2024 + 59.5 }, false, null, 'dup', 'x'],
  [null, null, null, null, null, null, null, null],
  ['Chloé ☕', -1.25, 10, null, null, null, null, 42],
];
const notes: FixtureCell[][] = [
  [{ inline: 'first name' }, 'say "hi"', 'ok?'],
  ['a', 1, 'yes'],
  ['b', 2, true],
];

const workbook = () =>
  new Blob([
    makeXlsx([
      { name: 'Sales 2024', rows: sales },
      { name: 'Empty', rows: [] },
      { name: 'Notes & <Misc>', rows: notes },
    ]),
  ]);

let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await openWasmDuckDB();
}, 60_000);

function columns(table: string) {
  return queryRows(
    conn,
    `select column_name, data_type from information_schema.columns where table_name = '${table}' order by ordinal_position`,
  );
}

describe('listExcelSheets', () => {
  it('lists every sheet in workbook order, names unescaped', async () => {
    expect(await listExcelSheets(workbook())).toEqual(['Sales 2024', 'Empty', 'Notes & <Misc>']);
  });

  it('rejects a file that is not a workbook', async () => {
    await expect(listExcelSheets(new Blob(['a,b\n1,2']))).rejects.toThrow(/^not a readable \.xlsx workbook/);
  });
});

describe('convertExcel', () => {
  it('makes one typed table per sheet with data, header from the first non-empty row', async () => {
    const progress: number[] = [];
    const tables = await convertExcel(workbook(), { onProgress: (f) => progress.push(f) });
    expect(tables.map((t) => t.sheet)).toEqual(['Sales 2024', 'Notes & <Misc>']);
    await insertConverted(conn, 'sales', tables[0]!);
    await insertConverted(conn, 'notes', tables[1]!);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);

    expect(columns('sales')).toEqual([
      { column_name: 'Name', data_type: 'VARCHAR' },
      { column_name: 'Amount', data_type: 'DOUBLE' },
      { column_name: 'Units', data_type: 'BIGINT' },
      { column_name: 'When', data_type: 'TIMESTAMP' },
      { column_name: 'Active', data_type: 'BOOLEAN' },
      { column_name: 'column_6', data_type: 'VARCHAR' },
      { column_name: 'Name_2', data_type: 'VARCHAR' },
      { column_name: 'Note', data_type: 'VARCHAR' },
    ]);
    expect(
      queryRows(conn, `select "Name", "Amount", "Units", "When"::varchar w, "Active", "Name_2", "Note" from sales`),
    ).toEqual([
      { Name: 'Alice', Amount: 12.5, Units: 3, w: '2024-01-01 00:00:00', Active: true, Name_2: 'dup', Note: '<script>alert(1)</script>' },
      { Name: 'Bob', Amount: 7, Units: null, w: '2024-02-29 12:00:00', Active: false, Name_2: 'dup', Note: 'x' },
      { Name: 'Chloé ☕', Amount: -1.25, Units: 10, w: null, Active: null, Name_2: null, Note: '42' },
    ]);

    expect(columns('notes')).toEqual([
      { column_name: 'first name', data_type: 'VARCHAR' },
      { column_name: 'say "hi"', data_type: 'BIGINT' },
      { column_name: 'ok?', data_type: 'VARCHAR' },
    ]);
    expect(queryRows(conn, `select "ok?" v from notes order by 1`)).toEqual([{ v: 'true' }, { v: 'yes' }]);
  });

  it('reads only the chosen sheets, and names a missing one', async () => {
    const tables = await convertExcel(workbook(), { sheets: ['Notes & <Misc>'] });
    expect(tables.map((t) => t.sheet)).toEqual(['Notes & <Misc>']);
    await insertConverted(conn, 'notes_only', tables[0]!);
    expect(queryRows(conn, `select sum("say ""hi""")::int s from notes_only`)).toEqual([{ s: 3 }]);
    await expect(convertExcel(workbook(), { sheets: ['Nope'] })).rejects.toThrow(/sheet not found: Nope \(the workbook has: Sales 2024, Empty/);
  });

  it('gives a header-only sheet an empty table and refuses a workbook with no data', async () => {
    const [table] = await convertExcel(new Blob([makeXlsx([{ name: 'S', rows: [['a', 'b']] }])]), {});
    await insertConverted(conn, 'header_only', table!);
    expect(queryRows(conn, 'select count(*)::int n from header_only')).toEqual([{ n: 0 }]);
    expect(columns('header_only').map((c) => c.column_name)).toEqual(['a', 'b']);
    await expect(convertExcel(new Blob([makeXlsx([{ name: 'S', rows: [] }])]), {})).rejects.toThrow(/no sheet/);
  });

  it('handles a sheet larger than one batch, past the 150,000 rows that once overflowed the stack', async () => {
    const rows: FixtureCell[][] = [['i', 'label']];
    for (let i = 0; i < 200_000; i++) rows.push([i, `r${i % 10}`]);
    const [table] = await convertExcel(new Blob([makeXlsx([{ name: 'Big', rows }])]), {});
    expect(await insertConverted(conn, 'big_xlsx', table!)).toBe(4); // batches
    expect(queryRows(conn, 'select count(*)::int n, sum(i)::bigint::varchar s from big_xlsx')).toEqual([
      { n: 200_000, s: String((199_999 * 200_000) / 2) },
    ]);
  }, 60_000);
});
