/**
 * "No raw rows": what a tool output may show the model when the user chose to send only
 * schemas, profiles and aggregates. Profiles lose their sample values (and the min/max of text
 * columns, which are row values too); every other output keeps at most `maxRows` items of each
 * list (table rows, Python results, stdout lines), with a note saying so. Column lists are schema
 * and stay whole. The UI still gets the full output; only the model's copy is shaped.
 */
import type { ColumnQuality, ProfileDataResult } from '../../../protocol/agent/tools';
import { plural } from '../../../shared/text';

export interface RowPolicy {
  /** Most rows (list items, stdout lines) of one tool output the model may see. */
  maxRows: number;
}

/** The policy for a run's settings, or undefined when raw rows may be sent. */
export function rowPolicyOf(settings: { noRawRows?: boolean; rowsPerToolOutput?: number }, fallback: number): RowPolicy | undefined {
  if (!settings.noRawRows) return undefined;
  return { maxRows: settings.rowsPerToolOutput ?? fallback };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Types whose min/max are aggregates worth keeping (numbers, dates, times). */
const ORDERED_TYPES = /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC|DATE|TIME|TIMESTAMP|INTERVAL)/i;

function shapeProfile(p: ProfileDataResult): ProfileDataResult & { note: string } {
  const quality: Record<string, ColumnQuality> = {};
  for (const [name, q] of Object.entries(p.quality)) {
    const next: ColumnQuality = { ...q, sample: [] };
    if (!ORDERED_TYPES.test(q.dtype)) {
      delete next.min;
      delete next.max;
    }
    quality[name] = next;
  }
  return { ...p, quality, note: 'No raw rows: sample values (and the min/max of text columns) are withheld from you; the user sees them.' };
}

interface Cut {
  lists: number;
}

function limit(value: unknown, max: number, cut: Cut, key?: string): unknown {
  if (Array.isArray(value)) {
    // A table's column list is its schema, not its rows.
    const keep = key === 'columns' ? value : value.slice(0, max);
    if (keep.length < value.length) cut.lists++;
    return keep.map((v) => limit(v, max, cut));
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = limit(v, max, cut, k);
    return out;
  }
  return value;
}

/** The first `max` lines of printed output, with a count of the rest. */
export function limitLines(text: string, max: number): string {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  // Already limited (a stored output shaped again): the marker line is not output.
  const marked = WITHHELD_LINES.exec(lines[lines.length - 1] ?? '');
  const earlier = marked ? Number(marked[1]) : 0;
  if (marked) lines.pop();
  if (lines.length <= max) return text;
  return `${lines.slice(0, max).join('\n')}\n… [${lines.length - max + earlier} more lines withheld: No raw rows]\n`;
}

const WITHHELD_LINES = /^… \[(\d+) more lines withheld: No raw rows\]$/;

/** The output as the model may see it under `policy` (unchanged without one). */
export function withholdRows(tool: string | undefined, output: unknown, policy: RowPolicy | undefined): unknown {
  if (!policy) return output;
  // describe_columns leaves out top values itself under No raw rows (knowledge/describe.ts).
  if (tool === 'validate_results' || tool === 'search_examples' || tool === 'describe_columns') return output;
  if (tool === 'profile_data' && isRecord(output) && isRecord(output.quality)) return shapeProfile(output as unknown as ProfileDataResult);
  const max = policy.maxRows;
  const cut: Cut = { lists: 0 };
  let value: unknown = output;
  let linesCut = false;
  if (isRecord(value)) {
    const v: Record<string, unknown> = { ...value };
    if (typeof v.stdout === 'string') {
      const limited = limitLines(v.stdout, max);
      linesCut = limited !== v.stdout;
      v.stdout = limited;
    }
    // A figure carries every plotted value: the model gets what it is, not its data.
    if (isRecord(v.figure)) {
      const traces = Array.isArray(v.figure.data) ? v.figure.data.length : 0;
      v.figure = `a chart with ${plural(traces, 'trace')}, shown to the user (data withheld: No raw rows)`;
    }
    value = v;
  }
  value = limit(value, max, cut);
  if (cut.lists === 0 && !linesCut) return value;
  if (isRecord(value)) {
    if (Array.isArray(value.rows) && Array.isArray((output as { rows?: unknown }).rows)) value.truncated = true;
    value.note = `No raw rows: you see at most ${max} rows of each table or list; the user sees them all. Use aggregates (COUNT, AVG, GROUP BY) to learn more.`;
    return value;
  }
  return { value, note: `No raw rows: you see at most ${max} items of each list; the user sees them all.` };
}
