/**
 * Small text helpers the page and the workers share: one escaping of HTML and of regular
 * expressions, and one way to count things in words.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML elements and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Text matched literally inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The word for `n` things: `one` for exactly one, else `many` (default: `one` + "s"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** "1 row", "1,234 rows": the count (en-US grouping) and its word. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${pluralWord(n, one, many)}`;
}
