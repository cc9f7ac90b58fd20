/**
 * Text Plotly renders as its pseudo-HTML (titles, annotations, hover and text templates, tick
 * labels, legend entries, table cells), rebuilt from its parts the way Plotly reads them.
 *
 * Plotly (plotly.js 4, src/lib/svg_text_utils.js: `SPLIT_TAGS`, `ONE_TAG`, `TAG_STYLES`,
 * `STYLEMATCH`, `getQuotedMatch`, `convertEntities`) splits a string on `<[^<>]*>`, reads each piece
 * with `<(\/?)([^ >]*)(\s+(.*))?>`, draws tags it knows (`br`, `b`, `i`, `em`, `s`, `u`, `sub`,
 * `sup`, `span`, `a`) and shows every other piece as text; a tag's `style` is taken by
 * `(^|[\s"'])style\s*=\s*("([^"]*);?"|'([^']*);?')` and its entities decoded before it is written
 * into the SVG. Here every piece Plotly would draw as a tag is written again from what it means:
 * known tags without attributes, `span`-like tags with a style of allowed properties only
 * (cssTokens.ts `safeStyle`), links as their text (a link is a click away from sending data out),
 * and hover's `<extra>` box. Every other `<` becomes `&lt;` — which Plotly shows as `<` — so no
 * tag can form later when a template joins this string to another.
 */
import { safeStyle } from './cssTokens';

const SPLIT_TAGS = /(<[^<>]*>)/;
const ONE_TAG = /^<(\/?)([^ >]*)(\s+(.*))?>$/i;
const STYLE_MATCH = /(^|[\s"'])style\s*=\s*("([^"]*);?"|'([^']*);?')/i;
/** Tags Plotly draws (TAG_STYLES) minus `a`; `br` is a line break with no closing form. */
const STYLED_TAGS = new Set(['b', 'i', 'em', 's', 'u', 'sub', 'sup', 'span']);
/** hovertemplate's secondary box (`<extra>name</extra>`), read by Plotly before it renders. */
const EXTRA = /^<\/?extra>$/;

/** Plotly's `convertEntities`: the named entities it knows and numeric ones. */
const ENTITIES: Record<string, string> = { mu: 'μ', amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', times: '×', plusmn: '±', deg: '°' };
function convertEntities(s: string): string {
  return s.replace(/&(#\d+|#x[\da-fA-F]+|[a-z]+);/g, (all, e: string) => {
    if (e.startsWith('#')) {
      const n = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return n <= 0x10ffff ? String.fromCodePoint(n) : all;
    }
    return ENTITIES[e] ?? all;
  });
}

/**
 * A `<` in text that a join could turn into a tag Plotly draws: its names are letters, so only a
 * `<` before a letter, a `/`, a template's `%{` or the string's end can start one (Plotly reads a
 * tag's name up to a space, so `1 < 2` stays text whatever follows).
 */
const OPENS_TAG = /<(?=[A-Za-z/%]|$)/g;
/** A template placeholder as Plotly finds one (src/lib/index.js, `TEMPLATE_STRING_REGEX`), loosely. */
const PLACEHOLDER = /%\{[^}]*\}/g;

function tag(piece: string): string {
  if (EXTRA.test(piece)) return piece;
  const m = ONE_TAG.exec(piece);
  const name = m?.[2]?.toLowerCase();
  if (!m || name === undefined) return piece.replace(OPENS_TAG, '&lt;');
  if (name === 'br') return '<br>';
  if (name === 'a') return '';
  if (!STYLED_TAGS.has(name)) return piece.replace(OPENS_TAG, '&lt;');
  if (m[1]) return `</${name}>`;
  const attrs = m[4];
  const found = attrs === undefined ? null : STYLE_MATCH.exec(attrs);
  const raw = found?.[3] ?? found?.[4];
  const style = raw ? safeStyle(convertEntities(raw)) : '';
  return style ? `<${name} style="${style}">` : `<${name}>`;
}

/** `s` as Plotly would draw it, minus links and any style that is not plain colour or type. */
export function plotlyText(s: string): string {
  if (!s.includes('<')) return s;
  let out = '';
  // A template's number format may pad with `<` (`%{y:<<10}`): a `<` made when the value is
  // drawn, beside whatever text follows. No `<` stays inside a placeholder (the format is then
  // one Plotly cannot read, and it shows the plain value).
  const text = s.includes('%{') ? s.replace(PLACEHOLDER, (p) => p.replace(/</g, '&lt;')) : s;
  for (const piece of text.split(SPLIT_TAGS)) {
    if (piece === '') continue;
    out += piece.startsWith('<') && piece.endsWith('>') && piece.length > 1 ? tag(piece) : piece.replace(OPENS_TAG, '&lt;');
  }
  return out;
}

/** The words of Plotly text as a reader hears them: tags out (a line break as a space), entities decoded. */
export function plotlyPlainText(s: string): string {
  if (!s.includes('<') && !s.includes('&')) return s;
  let out = '';
  for (const piece of s.split(SPLIT_TAGS)) {
    const m = piece.startsWith('<') ? ONE_TAG.exec(piece) : null;
    const name = m?.[2]?.toLowerCase();
    if (name === 'br') out += ' ';
    else if (name !== undefined && (STYLED_TAGS.has(name) || name === 'a' || name === 'extra')) continue;
    else out += convertEntities(piece);
  }
  return out.replace(/\s+/g, ' ').trim();
}
