// Prints result rows as a fixed-width table; ratios over the goal are flagged.
export const RATIO_GOAL = 3.0;

function cell(v) {
  // null: a row that could not be measured here; its name says why.
  if (v === null) return 'n/a';
  return v === undefined ? '' : String(v);
}

/** @param {{ name: string, value: number, unit: string, baseline?: { name: string, value: number }, ratio?: number }[]} rows */
export function printTable(rows) {
  const body = rows.map((r) => [
    r.name,
    cell(r.value),
    r.unit,
    r.baseline ? `${r.baseline.value} (${r.baseline.name})` : '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}${r.ratio > RATIO_GOAL ? '  > goal' : ''}`,
  ]);
  const head = ['name', 'value', 'unit', 'baseline', `ratio (goal ≤ ${RATIO_GOAL.toFixed(1)})`];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cols) => cols.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' │ ');
  console.log(fmt(head));
  console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'));
  for (const b of body) console.log(fmt(b));
}
