/**
 * Grounding: every number the final answer states should be traceable to a tool output of the
 * same run. Numbers that appear in no output (with rounding tolerance) are reported so the UI
 * can flag them; this catches figures the model invented or computed in its head.
 *
 * What counts as a claimed number (decided here, tested in grounding.test.ts):
 * - integers, decimals, thousands separators (`12,345.6`), leading signs (`-3`, `−3`), scientific
 *   notation (`1.2e-5`), percents (`45%`, `45 percent`), and scales (`1.2k`, `3.4M`, `2 billion`).
 * - NOT claims, so skipped: fenced and inline code (code is not an assertion), dates and times
 *   (`2024-01-31`, `1/31/2024`, `Jan 5, 2024`, `March 2019`, `12:30`), years after a date word
 *   (`in 2019`, `since 1990`), ordinals (`3rd`), markdown list markers (`1. `), identifiers that
 *   embed digits (`col2`, `Q3`, `H2O`), bounds after a comparison sign (`p < 0.05`, `≥ 10`),
 *   confidence levels (`95% CI`, `95% confidence`), and small integers 0–10 (counts like
 *   "3 species" or "top 5" are too common to flag usefully).
 *
 * Matching an answer number A, written with d decimals, against a source value S:
 * - S rounds to A: |A − S| ≤ 0.5·10^−d (so 12.35 matches 12.3456 and 3,701 matches 3700.66);
 * - signs are ignored (a change of −12 is often written "fell by 12");
 * - a percent A% also matches a fraction S = A/100 (45% matches 0.4512);
 * - a scaled number (1.2M) matches at the precision written (1.15M–1.25M);
 * - after an approximation word (about, around, roughly, ~, nearly, almost, over, under,
 *   approximately, some) an integer's trailing zeros are rounding too: "about 3,700" matches 3,650–3,750.
 * Derived figures the model did not compute with a tool (a difference of two outputs) are, by
 * design, ungrounded: the answer should only state what the run produced.
 */

export interface ClaimedNumber {
  /** The number as written in the answer (e.g. "12,345.6", "45%", "1.2M"). */
  raw: string;
  value: number;
  /** Half the unit of the last written digit, in the units of `value`. */
  tolerance: number;
  percent: boolean;
  /** Index of `raw` in the answer. */
  index: number;
}

export interface GroundingResult {
  claimed: ClaimedNumber[];
  /** Raw texts of the claimed numbers found in no source, in order, without duplicates. */
  ungrounded: string[];
}

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';

/** Spans that are not claims; replaced by spaces so indices stay aligned. */
const MASKS: RegExp[] = [
  /```[\s\S]*?```/g,
  /`[^`\n]*`/g,
  // ISO dates and datetimes
  /\b\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
  // 1/31/2024, 31.01.2024, 2024/01/31
  /\b\d{1,4}[/.]\d{1,2}[/.]\d{2,4}\b/g,
  // times 12:30, 12:30:15
  /\b\d{1,2}:\d{2}(?::\d{2})?\b/g,
  // Jan 5, 2024 / January 2024 / 5 January 2024 / March 5th
  new RegExp(`\\b(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, 'gi'),
  new RegExp(`\\b(?:${MONTHS})\\.?,?\\s+\\d{4}\\b`, 'gi'),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\.?(?:,?\\s+\\d{4})?\\b`, 'gi'),
  // years after a date word
  /\b(?:in|since|from|until|till|through|before|after|during|year|years|by|of|between)\s+(?:the\s+year\s+)?(?:1[89]\d{2}|20\d{2}|2100)(?:\s*(?:-|–|to|and)\s*(?:1[89]\d{2}|20\d{2}|2100))?\b/gi,
  // fiscal / quarter labels like Q3 2024, FY2023
  /\b(?:Q[1-4]|FY|H[12])\s*'?\d{2,4}\b/gi,
  // markdown list markers
  /^[ \t]*\d+[.)][ \t]/gm,
  // confidence levels
  /\b\d{2}(?:\.\d+)?\s*%\s*(?:CI|confidence|credible|prediction)\b/gi,
];

const APPROX = /(?:about|around|roughly|approximately|approx\.?|nearly|almost|over|under|some|~|≈)\s*$/i;
const BOUND = /(?:<=?|>=?|≤|≥|≪|≫)\s*$/;

const SCALES: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  trillion: 1e12,
};

/**
 * sign · mantissa (thousands groups or plain) · exponent · percent or scale.
 * The look-behinds keep digits glued to identifiers (col2, x86, H2O), hyphenated names
 * (COVID-19) and the tails of other numbers out. A glued unit (3700g, 12ms) is allowed; an
 * ordinal suffix (3rd) or a following digit/decimal is not. Scale letters are k/K, M, B only:
 * a lower-case m is more often metres or minutes than millions.
 */
const NUMBER =
  /(?<![\p{L}\p{N}_.,])(?<!\p{L}-)([-−+]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE]([-+]?\d+))?(?:\s?(%|percent\b|per cent\b)|\s?(thousand|million|billion|trillion|bn|mn)\b|([kKMB])(?!\p{L}))?(?!(?:st|nd|rd|th)\b)(?![\p{N}_]|[.,]\d)/gu;

function mask(text: string): string {
  let out = text;
  for (const re of MASKS) out = out.replace(re, (m) => ' '.repeat(m.length));
  return out;
}

function decimalsOf(mantissa: string): number {
  const dot = mantissa.indexOf('.');
  return dot < 0 ? 0 : mantissa.length - dot - 1;
}

function trailingZeros(intDigits: string): number {
  const m = /0+$/.exec(intDigits);
  return m ? Math.min(m[0].length, intDigits.length - 1) : 0;
}

/** Every number in `text` that reads as a claim, with the precision it was written at. */
export function extractNumbers(text: string): ClaimedNumber[] {
  const masked = mask(text);
  const out: ClaimedNumber[] = [];
  for (const m of masked.matchAll(NUMBER)) {
    const [whole, sign, mantissa, exp, pct, scaleWord, scaleLetter] = m;
    const index = m.index;
    const before = masked.slice(Math.max(0, index - 24), index);
    if (BOUND.test(before)) continue;
    const digits = (mantissa ?? '').replace(/,/g, '');
    const percent = pct !== undefined;
    const scaleKey = (scaleWord ?? scaleLetter ?? '').toLowerCase();
    const scale = SCALES[scaleKey] ?? 1;
    const exponent = exp !== undefined ? Number(exp) : 0;
    const negative = sign === '-' || sign === '−';
    const magnitude = Number(`${digits}e${exponent}`) * scale;
    if (!Number.isFinite(magnitude)) continue;
    const plainInteger = !digits.includes('.') && exp === undefined && !percent && scale === 1;
    if (plainInteger && magnitude <= 10) continue;

    let unit = 10 ** (exponent - decimalsOf(digits)) * scale;
    if (APPROX.test(before) && !digits.includes('.')) {
      unit *= 10 ** trailingZeros(digits.replace(/^0+(?=\d)/, ''));
    }
    out.push({ raw: whole.trim(), value: negative ? -magnitude : magnitude, tolerance: unit / 2, percent, index });
  }
  return out;
}

/**
 * The numbers a run's tool outputs contain: numeric values directly (exact), and numbers inside
 * strings (stdout, formatted tables, error texts) read without the claim filters, since any
 * number printed by code is evidence.
 */
export function collectSourceNumbers(sources: readonly unknown[]): number[] {
  const found: number[] = [];
  const seen = new Set<unknown>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 64) return;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) found.push(v);
    } else if (typeof v === 'bigint') {
      found.push(Number(v));
    } else if (typeof v === 'string') {
      for (const n of numbersInText(v)) found.push(n);
    } else if (v !== null && typeof v === 'object') {
      if (seen.has(v)) return;
      seen.add(v);
      if (ArrayBuffer.isView(v)) {
        if (!(v instanceof DataView)) for (const x of Array.from(v as unknown as ArrayLike<number | bigint>)) visit(x, depth + 1);
        return;
      }
      if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
      else
        for (const [k, x] of Object.entries(v)) {
          for (const n of numbersInText(k)) found.push(n);
          visit(x, depth + 1);
        }
    }
  };
  for (const s of sources) visit(s, 0);
  return found;
}

const LOOSE_NUMBER = /[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-−]?\.\d+(?:[eE][-+]?\d+)?/g;

function numbersInText(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(LOOSE_NUMBER)) {
    const n = Number(m[0].replace(/,/g, '').replace('−', '-'));
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

/** Sorted absolute values, for tolerance lookups by binary search. */
export class NumberIndex {
  private readonly sorted: Float64Array;

  constructor(values: Iterable<number>) {
    const abs: number[] = [];
    for (const v of values) if (Number.isFinite(v)) abs.push(Math.abs(v));
    this.sorted = Float64Array.from(abs).sort();
  }

  get size(): number {
    return this.sorted.length;
  }

  /** Is some value within [target − tol, target + tol]? */
  has(target: number, tol: number): boolean {
    const lo = Math.abs(target) - tol;
    const hi = Math.abs(target) + tol;
    let a = 0;
    let b = this.sorted.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((this.sorted[mid] ?? Infinity) < lo) a = mid + 1;
      else b = mid;
    }
    return (this.sorted[a] ?? Infinity) <= hi;
  }
}

function isGrounded(n: ClaimedNumber, index: NumberIndex): boolean {
  // A relative epsilon absorbs binary floating point error (0.1 + 0.2).
  const slack = (v: number) => Math.abs(v) * 1e-9 + 1e-12;
  if (index.has(n.value, n.tolerance + slack(n.value))) return true;
  if (n.percent) {
    const fraction = n.value / 100;
    if (index.has(fraction, n.tolerance / 100 + slack(fraction))) return true;
  }
  return false;
}

/**
 * Checks an answer against the run's tool outputs. `extraText` holds other trusted text whose
 * numbers count as grounded (the user's question: "top 20", "in 2019").
 */
export function checkGrounding(
  answer: string,
  toolOutputs: readonly unknown[],
  extraText: readonly string[] = [],
): GroundingResult {
  const claimed = extractNumbers(answer);
  if (claimed.length === 0) return { claimed, ungrounded: [] };
  const index = new NumberIndex([...collectSourceNumbers(toolOutputs), ...extraText.flatMap(numbersInText)]);
  const ungrounded: string[] = [];
  for (const n of claimed) {
    if (!isGrounded(n, index) && !ungrounded.includes(n.raw)) ungrounded.push(n.raw);
  }
  return { claimed, ungrounded };
}
