/**
 * The contract's table-naming rule: the file stem lower-cased, every run of characters other than
 * a-z0-9 turned into `_`, clashes suffixed `_2`, `_3`…. Names the rule leaves unusable get a
 * prefix: an empty result becomes `dataset`, a leading digit gets `t_` (so the name works unquoted).
 * Reserved words (`select`, `order`…) are kept: every statement we generate quotes identifiers.
 */

/** The file name without its directory and last extension (`a/b/Sales.2024.csv` → `Sales.2024`). */
export function fileStem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(0, dot) : base;
}

/** Applies the character rule to any text (a stem, or `<stem>_<sheet>` for Excel). */
export function sanitizeName(text: string): string {
  const name = text.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  if (name === '' || name === '_') return 'dataset';
  return /^[0-9]/.test(name) ? `t_${name}` : name;
}

/** The first of `base`, `base_2`, `base_3`… that `taken` does not hold (compared lower-case). */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((t) => t.toLowerCase()));
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}_${i}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** The table name for a file (and, for a multi-sheet workbook, one of its sheets). */
export function tableNameFor(fileName: string, taken: Iterable<string>, sheet?: string): string {
  const stem = fileStem(fileName);
  return uniqueName(sanitizeName(sheet === undefined ? stem : `${stem}_${sheet}`), taken);
}
