/**
 * Column names every reader gives DuckDB: a blank name becomes `column_N` (N = 1-based position)
 * and a repeated one `name_2`, `name_3`, … Anything else is kept exactly as written.
 *
 * Duplicates are found case-insensitively because DuckDB identifiers are case-insensitive:
 * `Name` and `name` cannot both be columns of one table.
 */
export function uniqueColumnNames(raw: readonly (string | null | undefined)[]): string[] {
  const wanted = raw.map((name, index) =>
    name === null || name === undefined || name.trim() === '' ? `column_${index + 1}` : name,
  );
  // Reserve every original name first so a generated `x_2` never steals a later real `x_2`.
  const taken = new Set<string>();
  const firstSeen = new Set<string>();
  const isRepeat = wanted.map((name) => {
    const key = name.toLowerCase();
    if (firstSeen.has(key)) return true;
    firstSeen.add(key);
    taken.add(key);
    return false;
  });
  return wanted.map((name, index) => {
    if (!isRepeat[index]) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name}_${n}`;
      if (!taken.has(candidate.toLowerCase())) {
        taken.add(candidate.toLowerCase());
        return candidate;
      }
    }
  });
}
