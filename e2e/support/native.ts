/**
 * The reference answer: the same SQL run by native DuckDB (@duckdb/node-api) over the same file,
 * with each file exposed as a view named like the app's table.
 */
import { DuckDBInstance } from '@duckdb/node-api';

export interface NativeResult {
  columns: string[];
  rows: string[][];
}

const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Readers native DuckDB has built in, keyed by how a test names the source. */
export const read = {
  csv: (path: string): string => `read_csv(${sqlString(path)})`,
  parquet: (path: string): string => `read_parquet(${sqlString(path)})`,
  json: (path: string): string => `read_json(${sqlString(path)})`,
};

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value);
}

/** Runs `sql` natively after `CREATE VIEW <name> AS SELECT * FROM <source>` for each entry. */
export async function nativeQuery(sql: string, views: Record<string, string> = {}): Promise<NativeResult> {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    for (const [name, source] of Object.entries(views)) {
      await con.run(`CREATE VIEW "${name}" AS SELECT * FROM ${source}`);
    }
    const reader = await con.runAndReadAll(sql);
    return { columns: reader.columnNames(), rows: reader.getRowsJS().map((row) => row.map(cellText)) };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

/** Native DuckDB's error message for `sql` (first line), or null when it succeeds. */
export async function nativeError(sql: string, views: Record<string, string> = {}): Promise<string | null> {
  try {
    await nativeQuery(sql, views);
    return null;
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  }
}
