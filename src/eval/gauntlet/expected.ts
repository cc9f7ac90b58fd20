/**
 * Expected answers as the checker reads them, derived from a question's SQL result. Pure, so
 * the unit test derives them from native DuckDB and the app reads the stored `expected.json`.
 */
import type { ChartExpectation } from './chartCheck';
import type { GauntletQuestion } from './questions';

export type ExpectedAnswer =
  | { kind: 'number'; values: number[] }
  | { kind: 'set'; items: string[][] }
  | { kind: 'yesno'; answer: boolean; statistic?: number }
  | { kind: 'table'; rows: { key: string; value: number }[] }
  | { kind: 'chart'; columns: string[]; chart?: ChartExpectation };

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** Ten significant digits: enough for any tolerance, and stable across engines' last bits. */
function num(value: unknown, what: string): number {
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw new Error(`${what}: expected a number, got ${String(value)}`);
  return Number(n.toPrecision(10));
}

function text(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

function bool(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new Error(`${what}: expected a boolean, got ${String(value)}`);
}

export function expectedFrom(q: GauntletQuestion, result: QueryResult): ExpectedAnswer {
  const first = result.rows[0];
  switch (q.kind) {
    case 'number':
      if (!first) throw new Error(`${q.id}: the query returned no row`);
      return { kind: 'number', values: first.map((v) => num(v, q.id)) };
    case 'set':
      if (result.rows.length === 0) throw new Error(`${q.id}: the query returned no row`);
      return { kind: 'set', items: result.rows.map((r) => r.map(text)) };
    case 'yesno': {
      if (!first) throw new Error(`${q.id}: the query returned no row`);
      const at = (name: string) => {
        const i = result.columns.indexOf(name);
        if (i < 0) throw new Error(`${q.id}: the query has no column ${name}`);
        return first[i];
      };
      return { kind: 'yesno', answer: bool(at('answer'), q.id), statistic: num(at('statistic'), q.id) };
    }
    case 'table':
      return { kind: 'table', rows: result.rows.map((r) => ({ key: text(r[0]), value: num(r[1], q.id) })) };
    case 'chart': {
      if (!q.chart) return { kind: 'chart', columns: [...result.columns] };
      if (!q.chart.values) return { kind: 'chart', columns: [...result.columns], chart: { type: q.chart.type } };
      if (result.rows.length === 0) throw new Error(`${q.id}: the query returned no row`);
      return {
        kind: 'chart',
        columns: result.columns.slice(0, 1),
        chart: { type: q.chart.type, x: result.rows.map((r) => text(r[0])), y: result.rows.map((r) => num(r[1], q.id)) },
      };
    }
  }
}
