/**
 * Strings people write for "no value", compared lower-cased and trimmed: R and pandas (NA, NaN),
 * SQL dumps (NULL), Excel's and SPSS's error cells (#N/A, #NULL!, #DIV/0!…), and the marks of
 * statistics offices (UK ONS `..`, `x`, `[c]`, `[z]`; Eurostat `:`; SIPRI's `. .` and `xxx`). One list for every reader's
 * load report, so a CSV and a spreadsheet of the same table get the same findings.
 */
export const PLACEHOLDERS: ReadonlySet<string> = new Set([
  'null', 'n/a', 'na', 'n.a.', '#n/a', 'nan', 'none', 'nil', '(null)', 'missing', 'not available',
  '-', '--', '---', '–', '—', '.', '..', '...', '?', ':', '*',
  '. .', 'xxx', 'x', '[x]', '[c]', '[z]', '[u]', '[w]', '[low]',
  '#null!', '#div/0!', '#value!', '#ref!', '#num!', '#name?',
]);

export const isPlaceholderText = (v: string): boolean => PLACEHOLDERS.has(v.trim().toLowerCase());
