/**
 * What a tool returns to the model: its output as JSON text within a character budget (the UI
 * keeps the full output), and errors as `Error: …` text the model can reflect on, never as
 * exceptions that end the run.
 */

export const MODEL_OUTPUT_BUDGET = 6000;

/** JSON that survives BigInt (DuckDB BIGINT), Dates, typed arrays and non-finite numbers. */
export function toJsonText(value: unknown, indent?: number): string {
  return (
    JSON.stringify(
      value,
      (_key, v: unknown) => {
        if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
        if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
        if (v instanceof Date) return v.toISOString();
        if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
        return v;
      },
      indent,
    ) ?? 'null'
  );
}

/** `Error: <cause>` for the model; keeps an existing prefix. */
export function toolErrorText(error: unknown): string {
  let msg: string;
  if (error instanceof Error) msg = error.message || error.name;
  else if (typeof error === 'string') msg = error;
  else msg = toJsonText(error);
  msg = msg.trim() || 'unknown failure';
  return /^error:/i.test(msg) ? msg : `Error: ${msg}`;
}

function clipText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const head = Math.floor(budget * 0.7);
  const tail = Math.max(0, budget - head - 60);
  return `${text.slice(0, head)}\n… [${text.length - head - tail} characters cut] …\n${text.slice(text.length - tail)}`;
}

function isRowResult(v: unknown): v is { rows: unknown[]; row_count?: number } & Record<string, unknown> {
  return typeof v === 'object' && v !== null && Array.isArray((v as { rows?: unknown }).rows);
}

export interface ModelOutput {
  text: string;
  truncated: boolean;
}

/**
 * The output as the model sees it. Tables lose rows from the end (with a note saying how many
 * are shown), stdout keeps its head and tail, anything else is cut with a marker.
 */
export function formatToolOutputForModel(output: unknown, budget = MODEL_OUTPUT_BUDGET): ModelOutput {
  if (typeof output === 'string') {
    const text = clipText(output, budget);
    return { text, truncated: text !== output };
  }
  const full = toJsonText(output);
  if (full.length <= budget) return { text: full, truncated: false };

  let value: unknown = output;
  if (typeof value === 'object' && value !== null && typeof (value as { stdout?: unknown }).stdout === 'string') {
    const v = value as { stdout: string };
    value = { ...v, stdout: clipText(v.stdout, Math.floor(budget / 3)) };
  }
  if (isRowResult(value)) {
    const table = value;
    const rows = table.rows;
    const total = typeof table.row_count === 'number' ? table.row_count : rows.length;
    const withRows = (k: number) =>
      toJsonText({ ...table, rows: rows.slice(0, k), note: `showing the first ${k} of ${total} rows; the user sees them all` });
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (withRows(mid).length <= budget) lo = mid;
      else hi = mid - 1;
    }
    const text = withRows(lo);
    if (text.length <= budget) return { text, truncated: true };
    value = JSON.parse(text) as unknown;
  }
  const text = toJsonText(value);
  if (text.length <= budget) return { text, truncated: true };
  return { text: `${text.slice(0, budget - 80)} … [output cut: ${text.length} characters in total]`, truncated: true };
}
