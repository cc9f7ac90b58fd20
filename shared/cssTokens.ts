/**
 * CSS as a browser reads it, for the few places a figure's text reaches a style: the tokenizer of
 * CSS Syntax Level 3 (https://www.w3.org/TR/css-syntax-3/#tokenization), with escapes decoded
 * the way §4.3.7 says, so `u\72l(`, `u\rl(` and `\75 rl(` are the `url(` a browser sees.
 * Only what the app needs is produced: tokens of a declaration list (no at-rules, no blocks kept).
 */

export type CssToken =
  | { type: 'ident' | 'function' | 'at-keyword' | 'string' | 'url'; value: string }
  | { type: 'hash'; value: string; id: boolean }
  | { type: 'number' | 'percentage'; value: number; text: string }
  | { type: 'dimension'; value: number; text: string; unit: string }
  | { type: 'whitespace' | 'colon' | 'semicolon' | 'comma' | '(' | ')' | '[' | ']' | '{' | '}' | 'bad-string' | 'bad-url' | 'cdo' | 'cdc' }
  | { type: 'delim'; value: string };

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isWs = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n';
const isNameStart = (c: string | undefined) => c !== undefined && (/^[a-zA-Z_]$/.test(c) || c.charCodeAt(0) >= 0x80);
const isName = (c: string | undefined) => isNameStart(c) || isDigit(c) || c === '-';
const isNonPrintable = (c: string) => {
  const n = c.charCodeAt(0);
  return n <= 8 || n === 0x0b || (n >= 0x0e && n <= 0x1f) || n === 0x7f;
};

/** §3.3: newlines normalised, NUL and surrogates replaced. */
function preprocess(s: string): string[] {
  return Array.from(s.replace(/\r\n?|\f/g, '\n').replace(/\0/g, '\uFFFD'));
}

export function tokenizeCss(input: string): CssToken[] {
  const cs = preprocess(input);
  let i = 0;
  const out: CssToken[] = [];
  const at = (k = 0) => cs[i + k];
  const validEscape = (a: string | undefined, b: string | undefined) => a === '\\' && b !== '\n' && b !== undefined;
  const startsIdent = (a = at(), b = at(1), c = at(2)) => {
    if (a === '-') return isNameStart(b) || b === '-' || validEscape(b, c);
    if (isNameStart(a)) return true;
    return validEscape(a, b);
  };
  const startsNumber = (a = at(), b = at(1), c = at(2)) => {
    if (a === '+' || a === '-') return isDigit(b) || (b === '.' && isDigit(c));
    if (a === '.') return isDigit(b);
    return isDigit(a);
  };
  /** §4.3.7, after the backslash. */
  const escape = (): string => {
    const c = cs[i++];
    if (c === undefined) return '\uFFFD';
    if (!isHex(c)) return c;
    let hex = c;
    while (hex.length < 6 && isHex(at())) hex += cs[i++];
    if (isWs(at())) i++;
    const n = parseInt(hex, 16);
    return n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(n);
  };
  const name = (): string => {
    let s = '';
    for (;;) {
      const c = at();
      if (isName(c)) s += cs[i++];
      else if (validEscape(c, at(1))) {
        i++;
        s += escape();
      } else return s;
    }
  };
  const number = (): { value: number; text: string } => {
    let text = '';
    if (at() === '+' || at() === '-') text += cs[i++];
    while (isDigit(at())) text += cs[i++];
    if (at() === '.' && isDigit(at(1))) {
      text += cs[i++];
      while (isDigit(at())) text += cs[i++];
    }
    if ((at() === 'e' || at() === 'E') && (isDigit(at(1)) || ((at(1) === '+' || at(1) === '-') && isDigit(at(2))))) {
      text += `${cs[i++] ?? ''}${cs[i++] ?? ''}`;
      while (isDigit(at())) text += cs[i++];
    }
    return { value: Number(text), text };
  };
  const numeric = (): CssToken => {
    const n = number();
    if (startsIdent()) return { type: 'dimension', ...n, unit: name() };
    if (at() === '%') {
      i++;
      return { type: 'percentage', ...n };
    }
    return { type: 'number', ...n };
  };
  const string = (quote: string): CssToken => {
    let s = '';
    for (;;) {
      const c = cs[i++];
      if (c === undefined || c === quote) return { type: 'string', value: s };
      if (c === '\n') {
        i--;
        return { type: 'bad-string' };
      }
      if (c === '\\') {
        if (at() === undefined) continue;
        if (at() === '\n') i++;
        else s += escape();
      } else s += c;
    }
  };
  const badUrlRest = () => {
    for (;;) {
      const c = cs[i++];
      if (c === undefined || c === ')') return;
      if (validEscape(c, at())) escape();
    }
  };
  const url = (): CssToken => {
    let s = '';
    while (isWs(at())) i++;
    for (;;) {
      const c = cs[i++];
      if (c === undefined || c === ')') return { type: 'url', value: s };
      if (isWs(c)) {
        while (isWs(at())) i++;
        if (at() === ')' || at() === undefined) {
          i++;
          return { type: 'url', value: s };
        }
        badUrlRest();
        return { type: 'bad-url' };
      }
      if (c === '"' || c === "'" || c === '(' || isNonPrintable(c)) {
        badUrlRest();
        return { type: 'bad-url' };
      }
      if (c === '\\') {
        if (validEscape(c, at())) s += escape();
        else {
          badUrlRest();
          return { type: 'bad-url' };
        }
      } else s += c;
    }
  };
  const identLike = (): CssToken => {
    const s = name();
    if (s.toLowerCase() === 'url' && at() === '(') {
      i++;
      while (isWs(at()) && isWs(at(1))) i++;
      const q = isWs(at()) ? at(1) : at();
      if (q === '"' || q === "'") return { type: 'function', value: s };
      return url();
    }
    if (at() === '(') {
      i++;
      return { type: 'function', value: s };
    }
    return { type: 'ident', value: s };
  };

  while (i < cs.length) {
    const c = cs[i] as string;
    if (c === '/' && at(1) === '*') {
      const end = cs.indexOf('*', i + 2);
      let j = end;
      while (j !== -1 && cs[j + 1] !== '/') j = cs.indexOf('*', j + 1);
      i = j === -1 ? cs.length : j + 2;
      continue;
    }
    if (isWs(c)) {
      while (isWs(at())) i++;
      out.push({ type: 'whitespace' });
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      out.push(string(c));
      continue;
    }
    if (c === '#') {
      if (isName(at(1)) || validEscape(at(1), at(2))) {
        i++;
        const id = startsIdent();
        out.push({ type: 'hash', value: name(), id });
      } else {
        i++;
        out.push({ type: 'delim', value: c });
      }
      continue;
    }
    if (startsNumber()) {
      out.push(numeric());
      continue;
    }
    if (c === '-' && at(1) === '-' && at(2) === '>') {
      i += 3;
      out.push({ type: 'cdc' });
      continue;
    }
    if (startsIdent()) {
      out.push(identLike());
      continue;
    }
    if (c === '<' && at(1) === '!' && at(2) === '-' && at(3) === '-') {
      i += 4;
      out.push({ type: 'cdo' });
      continue;
    }
    if (c === '@') {
      i++;
      if (startsIdent()) out.push({ type: 'at-keyword', value: name() });
      else out.push({ type: 'delim', value: '@' });
      continue;
    }
    i++;
    switch (c) {
      case '(':
      case ')':
      case '[':
      case ']':
      case '{':
      case '}':
        out.push({ type: c });
        break;
      case ',':
        out.push({ type: 'comma' });
        break;
      case ':':
        out.push({ type: 'colon' });
        break;
      case ';':
        out.push({ type: 'semicolon' });
        break;
      default:
        out.push({ type: 'delim', value: c });
    }
  }
  return out;
}

/** Functions that make a browser fetch (or run) something when they appear in a value. */
const LOADING_FUNCTIONS = new Set(['url', 'src', 'image', 'image-set', '-webkit-image-set', 'cross-fade', '-webkit-cross-fade', 'element', '-moz-element', 'expression', 'paint']);

/**
 * Whether a value, read as CSS, names something to load: a `url(…)` token, a loading function
 * or an `@import`. Decided on tokens, so escaped and commented forms count as the browser counts them.
 */
export function cssLoads(value: string): boolean {
  for (const t of tokenizeCss(value)) {
    if (t.type === 'url' || t.type === 'bad-url') return true;
    if (t.type === 'function' && LOADING_FUNCTIONS.has(t.value.toLowerCase())) return true;
    if (t.type === 'at-keyword' && t.value.toLowerCase() === 'import') return true;
  }
  return false;
}

/** Named colours and keywords are plain words; a word is written back only in this shape. */
const WORD = /^[a-z]+(-[a-z]+)*$/;
const COLOUR_FUNCTIONS = new Set(['rgb', 'rgba', 'hsl', 'hsla']);
const FONT_WEIGHTS = new Set(['normal', 'bold', 'bolder', 'lighter']);
const FONT_STYLES = new Set(['normal', 'italic', 'oblique']);
const FONT_SIZES = new Set(['xx-small', 'x-small', 'small', 'medium', 'large', 'x-large', 'xx-large', 'larger', 'smaller']);
const SIZE_UNITS = new Set(['px', 'em', 'rem', 'pt', 'ex', 'ch']);
const DECORATIONS = new Set(['none', 'underline', 'overline', 'line-through']);

type Values = CssToken[];
const words = (v: Values) => v.filter((t) => t.type !== 'whitespace');

/** A colour: `#abc`, a named colour or keyword, or rgb()/hsl() of numbers and percentages. */
function colour(v: Values): string | undefined {
  const ts = words(v);
  const first = ts[0];
  if (!first) return undefined;
  if (ts.length === 1 && first.type === 'hash' && /^([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(first.value)) return `#${first.value.toLowerCase()}`;
  if (ts.length === 1 && first.type === 'ident' && WORD.test(first.value.toLowerCase())) return first.value.toLowerCase();
  if (first.type !== 'function' || !COLOUR_FUNCTIONS.has(first.value.toLowerCase()) || ts[ts.length - 1]?.type !== ')') return undefined;
  const args: string[] = [];
  for (const t of ts.slice(1, -1)) {
    if (t.type === 'number') args.push(String(t.value));
    else if (t.type === 'percentage') args.push(`${t.value}%`);
    else if (t.type === 'dimension' && /^(deg|turn|rad|grad)$/i.test(t.unit)) args.push(`${t.value}${t.unit.toLowerCase()}`);
    else if (t.type === 'comma') args.push(',');
    else if (t.type === 'delim' && t.value === '/') args.push('/');
    else return undefined;
  }
  return `${first.value.toLowerCase()}(${args.join(' ').replace(/ ,/g, ',')})`;
}

function keyword(v: Values, allowed: ReadonlySet<string>): string | undefined {
  const ts = words(v);
  const t = ts[0];
  return ts.length === 1 && t?.type === 'ident' && allowed.has(t.value.toLowerCase()) ? t.value.toLowerCase() : undefined;
}

function fontWeight(v: Values): string | undefined {
  const ts = words(v);
  const t = ts[0];
  if (ts.length === 1 && t?.type === 'number' && Number.isInteger(t.value) && t.value >= 1 && t.value <= 1000) return String(t.value);
  return keyword(v, FONT_WEIGHTS);
}

function fontSize(v: Values): string | undefined {
  const ts = words(v);
  const t = ts[0];
  if (ts.length !== 1 || !t) return undefined;
  if (t.type === 'dimension' && SIZE_UNITS.has(t.unit.toLowerCase()) && t.value > 0 && t.value <= 500) return `${t.value}${t.unit.toLowerCase()}`;
  if (t.type === 'percentage' && t.value > 0 && t.value <= 1000) return `${t.value}%`;
  return keyword(v, FONT_SIZES);
}

function decoration(v: Values): string | undefined {
  const ts = words(v);
  if (ts.length === 0 || ts.length > 3) return undefined;
  const out: string[] = [];
  for (const t of ts) {
    if (t.type !== 'ident' || !DECORATIONS.has(t.value.toLowerCase())) return undefined;
    out.push(t.value.toLowerCase());
  }
  return out.join(' ');
}

/**
 * The properties a figure's text may style, each with the values it may take: none of them can
 * load anything, and each value is written back from its tokens (never copied), so what leaves
 * is exactly what was checked. Plotly itself writes `color` as `fill` on SVG text.
 */
const PROPERTIES: Record<string, (v: Values) => string | undefined> = {
  color: colour,
  fill: colour,
  'font-weight': fontWeight,
  'font-style': (v) => keyword(v, FONT_STYLES),
  'font-size': fontSize,
  'text-decoration': decoration,
  'text-decoration-line': decoration,
};

/**
 * A `style` attribute's declarations reduced to the allowed ones (§5.4.5, "consume a list of
 * declarations", with the property name and value taken from tokens), in canonical form:
 * `color:#f00;font-weight:bold`. Anything else — another property, a value of another shape,
 * `!important`, a block — is left out.
 */
export function safeStyle(style: string): string {
  const ts = tokenizeCss(style);
  const kept: string[] = [];
  let start = 0;
  for (let k = 0; k <= ts.length; k++) {
    if (k < ts.length && ts[k]?.type !== 'semicolon') continue;
    const decl = ts.slice(start, k);
    start = k + 1;
    const body = decl.filter((t, j) => !(t.type === 'whitespace' && j === 0));
    const nameTok = body[0];
    if (nameTok?.type !== 'ident') continue;
    const rest = body.slice(1);
    const colon = rest.findIndex((t) => t.type !== 'whitespace');
    if (rest[colon]?.type !== 'colon') continue;
    const value = rest.slice(colon + 1);
    if (value.some((t) => t.type === '{' || t.type === '}' || t.type === '[' || t.type === ']' || (t.type === 'delim' && t.value === '!'))) continue;
    const prop = nameTok.value.toLowerCase();
    const check = Object.hasOwn(PROPERTIES, prop) ? PROPERTIES[prop] : undefined;
    const written = check?.(value);
    if (written !== undefined) kept.push(`${prop}:${written}`);
  }
  return kept.join(';');
}
