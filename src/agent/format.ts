/** Small display helpers for the step trace and answer card. */

/** JSON for a `<pre>`, shortened past `max` characters with a note saying so. */
export function prettyJson(value: unknown, max = 4000): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export interface TableOutput {
  columns: string[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
}

/** A `run_sql`-shaped output (`{columns:[{name}], rows}`), or null for anything else. */
export function asTable(output: unknown): TableOutput | null {
  if (typeof output !== 'object' || output === null) return null;
  const o = output as Record<string, unknown>;
  if (!Array.isArray(o.columns) || !Array.isArray(o.rows)) return null;
  const columns = o.columns.map((c: unknown) =>
    typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>).name === 'string' ? ((c as Record<string, unknown>).name as string) : String(c),
  );
  const rows = o.rows.filter((r): r is unknown[] => Array.isArray(r));
  return {
    columns,
    rows,
    row_count: typeof o.row_count === 'number' ? o.row_count : rows.length,
    truncated: o.truncated === true,
  };
}

export function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
