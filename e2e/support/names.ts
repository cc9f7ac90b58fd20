/**
 * The contract's table-name rule (AGENT-CONTRACT.md, "dataset list"): the file name without its
 * extension, lower-cased, every run of characters other than a-z0-9 turned into `_`.
 * Written independently of the app's implementation so the e2e suite checks it.
 */
export function tableNameFor(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, '');
  return stem.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/** A pattern for an integer as the UI may print it: `1461`, `1,461`, `1 461` (thin/nb spaces). */
export function integerPattern(n: number): string {
  const digits = String(n);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return groups.join('[,.\\s\\u00a0\\u202f]?');
}

/** Matches `<rows> rows` (with optional thousands separators) as a whole number. */
export function rowsText(n: number): RegExp {
  return new RegExp(`(^|[^\\d.,])${integerPattern(n)}\\s*rows?\\b`, 'i');
}

/** Matches `<cols> columns` (or `cols`). */
export function columnsText(n: number): RegExp {
  return new RegExp(`(^|[^\\d.,])${integerPattern(n)}\\s*(columns?|cols?)\\b`, 'i');
}

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
