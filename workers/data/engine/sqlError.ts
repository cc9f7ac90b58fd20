/**
 * DuckDB's error as one readable message. Streamed statements report errors as JSON
 * (`{"exception_type":"Parser","exception_message":…}`); DuckDB-WASM repeats the "LINE n:" caret
 * block, of which one is kept.
 */
import { messageOf } from '../../../shared/errors';
import { NEEDS_ICU } from './timeZones';

/** Characters of a cell an error quotes: a 10 MB cell made a 10,252-character alert. */
export const MAX_EXCERPT = 80;
/** The whole message at most (DuckDB's candidate lists and caret blocks stay readable). */
export const MAX_ERROR = 2_000;

/** Quoted text longer than MAX_EXCERPT cut to its start, with its length said. */
export function shortenExcerpts(text: string): string {
  // A scan, not a regular expression: a 10 MB quote overflows a regex engine's backtracking.
  let out = '';
  let i = 0;
  while (i < text.length) {
    const q = text.slice(i).search(/['"]/);
    if (q < 0) {
      out += text.slice(i);
      i = text.length;
      break;
    }
    const open = i + q;
    const close = text.indexOf(text[open]!, open + 1);
    if (close < 0) {
      out += text.slice(i);
      i = text.length;
      break;
    }
    const inner = text.slice(open + 1, close);
    out += text.slice(i, open + 1) + (inner.length > MAX_EXCERPT ? `${inner.slice(0, MAX_EXCERPT)}…${text[open]} (${inner.length.toLocaleString('en-US')} characters)` : `${inner}${text[open]}`);
    i = close + 1;
    if (out.length > MAX_ERROR) break;
  }
  return out.length > MAX_ERROR || i < text.length ? `${out.slice(0, MAX_ERROR)}… (${text.length.toLocaleString('en-US')} characters in all)` : out;
}

/** DuckDB asks to install an extension this session cannot load: said plainly, for ICU what to do instead. */
function extensionHint(text: string): string | undefined {
  if (!/Extension Autoloading Error|exists in the (\w+) extension|install(ing)? and load(ing)? the/i.test(text)) return undefined;
  const name = /exists in the (\w+) extension/i.exec(text)?.[1] ?? /extension '(\w+)'/i.exec(text)?.[1];
  if (name?.toLowerCase() === 'icu') return `This SQL ${NEEDS_ICU}.`;
  return name ? `This SQL needs DuckDB's ${name} extension, which is not loaded in this session (extensions cannot be installed from SQL here).` : undefined;
}
export function briefSqlError(e: unknown): string {
  let text = (messageOf(e)).trim();
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && 'exception_message' in parsed) {
        const p = parsed as { exception_type?: unknown; exception_message?: unknown };
        text = `${typeof p.exception_type === 'string' ? `${p.exception_type} Error: ` : ''}${String(p.exception_message)}`;
      }
    } catch {
      // Not JSON after all: keep the text as it is.
    }
  }
  const hint = extensionHint(text);
  if (hint) return hint;
  const blocks = [...text.matchAll(/\n\s*LINE \d+:/g)];
  const second = blocks[1];
  return shortenExcerpts(second?.index !== undefined ? text.slice(0, second.index).trim() : text);
}
