/**
 * The dictionary editor's text fields and the stored shape: codes as "1 = North; 2 = South",
 * placeholders as ". , -9", join keys one per line as "cust_no = customers.customer_id".
 */
import type { CodeMeaning, JoinKey } from '../../protocol/agent/knowledge';

export function codesToText(codes: readonly CodeMeaning[]): string {
  return codes.map((c) => (c.meaning ? `${c.code} = ${c.meaning}` : c.code)).join('; ');
}

export function textToCodes(text: string): CodeMeaning[] {
  return text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? { code: part, meaning: '' } : { code: part.slice(0, at).trim(), meaning: part.slice(at + 1).trim() };
    })
    .filter((c) => c.code !== '');
}

export function listToText(values: readonly string[]): string {
  return values.join(', ');
}

export function textToList(text: string): string[] {
  return text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export function joinsToText(joins: readonly JoinKey[]): string {
  return joins.map((j) => `${j.column} = ${j.other_dataset}.${j.other_column}`).join('\n');
}

/** Lines "column = table.column"; a line that is not one is reported, not dropped silently. */
export function textToJoins(text: string): { joins: JoinKey[]; bad: string[] } {
  const joins: JoinKey[] = [];
  const bad: string[] = [];
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const eq = line.indexOf('=');
    const right = eq < 0 ? '' : line.slice(eq + 1).trim();
    const dot = right.indexOf('.');
    const column = line.slice(0, Math.max(eq, 0)).trim();
    if (eq < 0 || dot <= 0 || !column || dot === right.length - 1) bad.push(line);
    else joins.push({ column, other_dataset: right.slice(0, dot).trim(), other_column: right.slice(dot + 1).trim() });
  }
  return { joins, bad };
}
