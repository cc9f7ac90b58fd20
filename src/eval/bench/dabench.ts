/**
 * InfiAgent-DABench as its authors score it. The questions file (JSONL: id, question, concepts,
 * constraints, format, file_name, level) and the labels file (JSONL: id, common_answers:
 * [[name, value], …]) are read as the user brings them; a response is scored by the rules of the
 * authors' `eval_closed_form.py` (github.com/InfiAgent/InfiAgent, examples/DA-Agent/
 * eval_closed_form.py, commit 98c4f48):
 *
 *   extract_format:  re.findall(r"@(\w+)\[(.*?)\]", response) → dict(zip(names, answers))
 *                    (a name given twice keeps its last value; `.` stops at a newline)
 *   is_equal:        response == label, else abs(float(response) - float(label)) < 1e-6,
 *                    any exception (no value, not a number) → False
 *   by question:     every label sub-answer correct; by sub-question: the share of sub-answers;
 *                    proportional: each question's share, averaged; by concept: per question.
 *
 * No stripping, no case folding: `@is_normal[ no]` or `@is_normal[No]` against a label `no` is
 * wrong there, so it is wrong here. The one difference: the authors' script skips a question
 * whose response is empty (it never enters the denominator); a run here that ended with no
 * answer counts as wrong, since it was asked and did not answer.
 */

export interface DabenchQuestion {
  id: string;
  question: string;
  concepts: string[];
  constraints: string;
  format: string;
  file_name: string;
  level: string;
}

export interface DabenchLabel {
  id: string;
  /** [name, value] pairs, values as the labels file writes them (always strings there). */
  answers: [string, string][];
}

export interface SubAnswer {
  name: string;
  expected: string;
  /** What the response gave for `name`; null when it gave nothing. */
  got: string | null;
  correct: boolean;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Python's `\w` on str is Unicode-aware (letters, digits, underscore); JS needs `\p{…}` with `u`. */
const FORMAT_RE = /@([\p{L}\p{N}_]+)\[([^\n]*?)\]/gu;

/** `re.findall(r"@(\w+)\[(.*?)\]", s)` folded into a dict as the script does (last one wins). */
export function extractFormat(response: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of response.matchAll(FORMAT_RE)) out.set(m[1] as string, m[2] as string);
  return out;
}

// Python's float(): surrounding whitespace, a sign, digits with single underscores between
// them, an optional fraction and exponent, or inf/infinity/nan in any case.
const PY_DIGITS = String.raw`\d(?:_?\d)*`;
const PY_FLOAT_RE = new RegExp(String.raw`^[+-]?(?:(?:${PY_DIGITS}(?:\.(?:${PY_DIGITS})?)?|\.${PY_DIGITS})(?:[eE][+-]?${PY_DIGITS})?|inf(?:inity)?|nan)$`, 'i');
// float() strips what Python calls whitespace: JS's \s without U+FEFF, plus U+0085 (checked
// against CPython 3: float('\ufeff2') raises, float('\x852') is 2.0).
const PY_SPACE = /^(?:(?!\uFEFF)[\s\u0085])+|(?:(?!\uFEFF)[\s\u0085])+$/g;
const pyStrip = (s: string): string => s.replace(PY_SPACE, '');

/**
 * Python reads any Unicode decimal digit (`float('١٢')` is 12.0). Digits come in runs of ten from
 * zero, some runs adjacent (the mathematical digits), so a digit's value is its distance from the
 * start of its run, modulo ten.
 */
function asciiDigits(s: string): string {
  return s.replace(/\p{Nd}/gu, (d) => {
    if (d >= '0' && d <= '9') return d;
    let start = d.codePointAt(0) as number;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    return String(((d.codePointAt(0) as number) - start) % 10);
  });
}

/** Python's `float(s)`, or null where it raises. */
export function pyFloat(s: string): number | null {
  const t = asciiDigits(pyStrip(s));
  if (!PY_FLOAT_RE.test(t)) return null;
  const lower = t.toLowerCase().replace(/_/g, '');
  const sign = lower.startsWith('-') ? -1 : 1;
  const body = lower.replace(/^[+-]/, '');
  if (body === 'nan') return Number.NaN;
  if (body === 'inf' || body === 'infinity') return sign * Number.POSITIVE_INFINITY;
  return Number(lower);
}

/** The script's `is_equal(response, label)`. */
export function isEqual(response: string | null, label: string): boolean {
  if (response === null) return false;
  if (response === label) return true;
  const a = pyFloat(response);
  const b = pyFloat(label);
  if (a === null || b === null) return false;
  // abs(nan) < 1e-6 and abs(inf - inf) < 1e-6 are both False in Python, as here.
  return Math.abs(a - b) < 1e-6;
}

/** Scores one response against its label: one entry per label sub-answer, in the label's order. */
export function scoreResponse(response: string, label: DabenchLabel): SubAnswer[] {
  const given = extractFormat(response);
  return label.answers.map(([name, expected]) => {
    const got = given.get(name) ?? null;
    return { name, expected, got, correct: isEqual(got, expected) };
  });
}

// ------------------------------------------------------------------------------ the files

function lines(text: string): { n: number; value: unknown }[] | string {
  const out: { n: number; value: unknown }[] = [];
  const all = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < all.length; i++) {
    const line = (all[i] as string).trim();
    if (!line) continue;
    try {
      out.push({ n: i + 1, value: JSON.parse(line) as unknown });
    } catch (e) {
      return `line ${i + 1} is not JSON (${e instanceof Error ? e.message : String(e)})`;
    }
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Ids are integers in the published files; kept as text so either form matches. */
const idOf = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' && v.trim() ? v.trim() : null);

export function parseQuestions(text: string): ParseResult<DabenchQuestion[]> {
  const rows = lines(text);
  if (typeof rows === 'string') return { ok: false, error: `questions: ${rows}` };
  const out: DabenchQuestion[] = [];
  for (const { n, value } of rows) {
    if (!isRecord(value)) return { ok: false, error: `questions: line ${n} is not an object` };
    const id = idOf(value.id);
    if (id === null) return { ok: false, error: `questions: line ${n} has no id` };
    if (typeof value.question !== 'string') return { ok: false, error: `questions: line ${n} has no question` };
    if (typeof value.file_name !== 'string') return { ok: false, error: `questions: line ${n} has no file_name` };
    out.push({
      id,
      question: value.question,
      concepts: Array.isArray(value.concepts) ? value.concepts.filter((c): c is string => typeof c === 'string') : [],
      constraints: typeof value.constraints === 'string' ? value.constraints : '',
      format: typeof value.format === 'string' ? value.format : '',
      file_name: value.file_name,
      level: typeof value.level === 'string' && value.level ? value.level : 'unknown',
    });
  }
  if (out.length === 0) return { ok: false, error: 'questions: the file has no question' };
  return { ok: true, value: out };
}

export function parseLabels(text: string): ParseResult<DabenchLabel[]> {
  const rows = lines(text);
  if (typeof rows === 'string') return { ok: false, error: `labels: ${rows}` };
  const out: DabenchLabel[] = [];
  for (const { n, value } of rows) {
    if (!isRecord(value)) return { ok: false, error: `labels: line ${n} is not an object` };
    const id = idOf(value.id);
    if (id === null) return { ok: false, error: `labels: line ${n} has no id` };
    const pairs = value.common_answers;
    if (!Array.isArray(pairs) || !pairs.every((p) => Array.isArray(p) && p.length >= 2 && typeof p[0] === 'string')) {
      return { ok: false, error: `labels: line ${n} has no common_answers [[name, value], …]` };
    }
    // The published labels are strings; a number written bare is compared as Python's str() would write it.
    out.push({ id, answers: (pairs as unknown[][]).map((p) => [p[0] as string, typeof p[1] === 'string' ? p[1] : String(p[1])]) });
  }
  return { ok: true, value: out };
}

/** Looks like a DABench questions file: its first object has `format` and `file_name`. */
export function looksLikeDabenchQuestions(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/).find((l) => l.trim());
  if (!first) return false;
  try {
    const v = JSON.parse(first) as unknown;
    return isRecord(v) && 'file_name' in v && 'format' in v && 'question' in v;
  } catch {
    return false;
  }
}

export function looksLikeDabenchLabels(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/).find((l) => l.trim());
  if (!first) return false;
  try {
    const v = JSON.parse(first) as unknown;
    return isRecord(v) && Array.isArray(v.common_answers);
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------------------ the prompt

/**
 * The question as the benchmark puts it to a model: the question, its constraints and the format
 * with its `@name[value]` placeholders, then the instruction the authors' reformat step gives
 * (reformat.py: "Your answer should contain all the "@answer_name[answer]" in the order
 * mentioned"). The table the CSV loaded as is named, since the model works in SQL/Python here.
 */
export function dabenchPrompt(q: DabenchQuestion, table: string): string {
  return [
    `Question: ${q.question}`,
    q.constraints ? `Constraints: ${q.constraints}` : '',
    q.format ? `Format: ${q.format}` : '',
    `The data is the file ${q.file_name}, loaded as the table ${table}.`,
    'Answer strictly in the Format above: your final answer must contain every "@answer_name[answer]" in the order mentioned, each answer in the range of values required.',
  ]
    .filter(Boolean)
    .join('\n');
}

// ---------------------------------------------------------------------------- the summary

export interface DabenchItem {
  id: string;
  level: string;
  concepts: readonly string[];
  sub: readonly SubAnswer[];
}

export interface Rate {
  key: string;
  n: number;
  correct: number;
  accuracy: number;
}

export interface DabenchSummary {
  questions: number;
  /** Accuracy by question: all of a question's sub-answers right. */
  byQuestion: number;
  /** Accuracy by sub-question: right sub-answers over all sub-answers. */
  bySubQuestion: number;
  /** Each question's share of right sub-answers, averaged. */
  proportional: number;
  byLevel: Rate[];
  byConcept: Rate[];
}

/** The script rounds to four places (round(x, 4)); kept unrounded here, the view rounds. */
export function summariseDabench(items: readonly DabenchItem[]): DabenchSummary {
  // Python's all() of no sub-answers is True; the script counts such a question right.
  const allRight = (i: DabenchItem) => i.sub.every((s) => s.correct);
  const subs = items.flatMap((i) => i.sub);
  const rate = (key: string, list: readonly DabenchItem[]): Rate => {
    const correct = list.filter(allRight).length;
    return { key, n: list.length, correct, accuracy: list.length ? correct / list.length : 0 };
  };
  const group = (keysOf: (i: DabenchItem) => readonly string[]): Rate[] => {
    const by = new Map<string, DabenchItem[]>();
    for (const i of items) for (const k of keysOf(i)) by.set(k, [...(by.get(k) ?? []), i]);
    return [...by.entries()].map(([k, list]) => rate(k, list));
  };
  return {
    questions: items.length,
    byQuestion: rate('all', items).accuracy,
    bySubQuestion: subs.length ? subs.filter((s) => s.correct).length / subs.length : 0,
    proportional: items.length ? items.reduce((s, i) => s + (i.sub.length ? i.sub.filter((x) => x.correct).length / i.sub.length : 0), 0) / items.length : 0,
    byLevel: group((i) => [i.level]),
    byConcept: group((i) => i.concepts),
  };
}
