/// <reference types="node" />
/**
 * Test-only: a ToolHost on native DuckDB (run_sql, profile_data) with no Python, for driving the
 * agent graphs in Node. Not imported by app code.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ProfileDataResult, RunSqlResult } from '../../../protocol/agent/tools';
import type { ToolHost } from '../tools/execute';
import { messageOf } from '../../../shared/errors';

const plain = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);

/** run_sql and profile_data on native DuckDB; no Python in this host. */
export function duckdbHost(conn: DuckDBConnection): ToolHost {
  return {
    async runSql(sql, maxRows) {
      const t0 = Date.now();
      try {
        const reader = await conn.runAndReadAll(sql);
        const names = reader.columnNames();
        const types = reader.columnTypes().map((t) => t.toString());
        const all = reader.getRowsJS();
        const value: RunSqlResult = {
          columns: names.map((name, i) => ({ name, type: types[i] ?? 'UNKNOWN' })),
          rows: all.slice(0, maxRows).map((r) => r.map(plain)),
          row_count: all.length,
          truncated: all.length > maxRows,
          elapsed_ms: Date.now() - t0,
        };
        return { ok: true, value };
      } catch (e) {
        return { ok: false, message: messageOf(e) };
      }
    },
    async profile(args) {
      const cols = (await conn.runAndReadAll(`DESCRIBE ${args.dataset}`)).getRowObjectsJS();
      const count = Number((await conn.runAndReadAll(`SELECT count(*) FROM ${args.dataset}`)).getRowsJS()[0]?.[0]);
      const names = cols.map((c) => String(c.column_name));
      const wanted = args.columns ?? names;
      const value: ProfileDataResult = {
        dataset: args.dataset,
        row_count: count,
        columns_found: wanted.filter((c) => names.includes(c)),
        columns_missing: wanted.filter((c) => !names.includes(c)),
        quality: {},
        can_proceed: wanted.every((c) => names.includes(c)),
        issues: [],
      };
      return { ok: true, value };
    },
    async runPython() {
      return { ok: false, message: 'Python is not available in this host' };
    },
  };
}

