/**
 * Dataseer's own question-set format, for sets people write themselves: JSONL, one question a
 * line, scored by the gauntlet's kinds (check.ts) against the answers it states.
 *
 *   {"id": "q1", "question": "How many orders were shipped late?", "files": ["orders.csv"],
 *    "kind": "number", "expected": [37], "tolerance": {"abs": 0}, "level": "easy",
 *    "concepts": ["Counting"]}
 *
 * kind and expected:
 *   number  expected: a number or numbers (any of them is right), tolerance {abs?, rel?}
 *   set     expected: names that must all be named; a name may be a list of accepted spellings
 *   yesno   expected: {"answer": true|false, "statistic"?: number}
 *   table   expected: [{"key": "north", "value": 12.5}, …], each key reported with its value
 *   chart   expected: {"type": "bar", "x": [...], "y": [...]} — a figure of that type plotting
 *           those values (so a bar of means fails a question about counts)
 */
import type { ExpectedAnswer } from '../gauntlet/expected';
import type { Tolerance } from '../gauntlet/questions';

export interface GenericQuestion {
  id: string;
  question: string;
  files: string[];
  expected: ExpectedAnswer;
  tolerance?: Tolerance;
  level: string;
  concepts: string[];
}

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function tolerance(v: unknown): Tolerance | undefined | string {
  if (v === undefined) return undefined;
  if (!isRecord(v)) return 'tolerance must be {"abs": n, "rel": n}';
  const t: Tolerance = {};
  if (v.abs !== undefined) {
    if (!isNum(v.abs) || v.abs < 0) return 'tolerance.abs must be a number ≥ 0';
    t.abs = v.abs;
  }
  if (v.rel !== undefined) {
    if (!isNum(v.rel) || v.rel < 0) return 'tolerance.rel must be a number ≥ 0';
    t.rel = v.rel;
  }
  return t;
}

function expected(kind: unknown, v: unknown): ExpectedAnswer | string {
  switch (kind) {
    case 'number': {
      const values = Array.isArray(v) ? v : [v];
      if (values.length === 0 || !values.every(isNum)) return 'a number question expects a number or a list of numbers';
      return { kind: 'number', values };
    }
    case 'set': {
      if (!Array.isArray(v) || v.length === 0) return 'a set question expects a list of names';
      const items = v.map((x) => (Array.isArray(x) ? x : [x]));
      if (!items.every((alts) => alts.length > 0 && alts.every((a) => typeof a === 'string' || isNum(a)))) return 'a set question expects names (or lists of spellings)';
      return { kind: 'set', items: items.map((alts) => alts.map(String)) };
    }
    case 'yesno': {
      if (!isRecord(v) || typeof v.answer !== 'boolean') return 'a yesno question expects {"answer": true|false, "statistic"?: n}';
      if (v.statistic !== undefined && !isNum(v.statistic)) return 'yesno statistic must be a number';
      return { kind: 'yesno', answer: v.answer, ...(isNum(v.statistic) ? { statistic: v.statistic } : {}) };
    }
    case 'table': {
      if (!Array.isArray(v) || v.length === 0 || !v.every((r) => isRecord(r) && (typeof r.key === 'string' || isNum(r.key)) && isNum(r.value))) {
        return 'a table question expects [{"key": …, "value": n}, …]';
      }
      return { kind: 'table', rows: (v as { key: string | number; value: number }[]).map((r) => ({ key: String(r.key), value: r.value })) };
    }
    case 'chart': {
      if (!isRecord(v) || typeof v.type !== 'string') return 'a chart question expects {"type": "bar", "x"?: […], "y"?: […]}';
      const x = Array.isArray(v.x) ? v.x.map(String) : undefined;
      const y = Array.isArray(v.y) && v.y.every(isNum) ? v.y : undefined;
      if (Array.isArray(v.y) && !y) return 'chart y must be numbers';
      if (x && y && x.length !== y.length) return 'chart x and y must be as long as each other';
      return { kind: 'chart', columns: [], chart: { type: v.type, ...(x ? { x } : {}), ...(y ? { y } : {}) } };
    }
    default:
      return `kind must be number, set, yesno, table or chart, not ${JSON.stringify(kind)}`;
  }
}

export function looksLikeGeneric(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/).find((l) => l.trim());
  if (!first) return false;
  try {
    const v = JSON.parse(first) as unknown;
    return isRecord(v) && typeof v.question === 'string' && 'kind' in v && 'expected' in v;
  } catch {
    return false;
  }
}

export function parseGeneric(text: string): Result<GenericQuestion[]> {
  const out: GenericQuestion[] = [];
  const rows = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const seen = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const line = (rows[i] as string).trim();
    if (!line) continue;
    const where = `line ${i + 1}`;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      return { ok: false, error: `${where} is not JSON (${e instanceof Error ? e.message : String(e)})` };
    }
    if (!isRecord(v) || typeof v.question !== 'string' || !v.question.trim()) return { ok: false, error: `${where} has no question` };
    const id = typeof v.id === 'string' && v.id.trim() ? v.id.trim() : isNum(v.id) ? String(v.id) : `q${out.length + 1}`;
    if (seen.has(id)) return { ok: false, error: `${where}: the id ${id} is used twice` };
    seen.add(id);
    const files = v.files === undefined ? [] : v.files;
    if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) return { ok: false, error: `${where}: files must be a list of file names` };
    const exp = expected(v.kind, v.expected);
    if (typeof exp === 'string') return { ok: false, error: `${where}: ${exp}` };
    const tol = tolerance(v.tolerance);
    if (typeof tol === 'string') return { ok: false, error: `${where}: ${tol}` };
    out.push({
      id,
      question: v.question,
      files: files as string[],
      expected: exp,
      ...(tol ? { tolerance: tol } : {}),
      level: typeof v.level === 'string' && v.level ? v.level : 'unknown',
      concepts: Array.isArray(v.concepts) ? v.concepts.filter((c): c is string => typeof c === 'string') : [],
    });
  }
  if (out.length === 0) return { ok: false, error: 'the file has no question' };
  return { ok: true, value: out };
}

/** The question with the tables its files loaded as, so the model knows where to look. */
export function genericPrompt(q: GenericQuestion, tables: readonly { file: string; table: string }[]): string {
  if (tables.length === 0) return q.question;
  return `${q.question}\n${tables.map((t) => `The file ${t.file} is loaded as the table ${t.table}.`).join('\n')}`;
}
