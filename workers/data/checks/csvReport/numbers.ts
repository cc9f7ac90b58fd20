/** Text columns that are numbers but for separators, padding or placeholders, and the re-read that types them. */
import type { ColumnInfo } from '../../../../protocol/data';
import { brokenBy, costsOthers, fixWorks, isNumericType, isPlaceholder, list, quoted, type CsvFinding, type Reader } from './kit';
import type { TextStats } from './textStats';

/** A fix for one text column, kept only when DuckDB reading with it makes the column numeric. */
export async function numberFinding(reader: Reader, s: TextStats, before: readonly ColumnInfo[], delimiter?: string): Promise<CsvFinding | undefined> {
  const col = s.column;
  const offer = async (finding: Omit<CsvFinding, 'fix'>, fix: CsvFinding['fix'], wanted = isNumericType): Promise<CsvFinding> => {
    if (!fix) return finding;
    const described = await reader.describe(fix.options);
    if (fixWorks(described, before, col, wanted)) return { ...finding, fix };
    const broken = wanted(described?.find((c) => c.name === col)?.type) ? brokenBy(described, before) : [];
    return broken.length > 0 ? { ...finding, message: `${finding.message}${costsOthers(broken)}` } : finding;
  };
  const pct = (k: number) => `${Math.round((k / s.nonNull) * 100)}%`;
  // Codes written with leading zeros (ZIP, FIPS, IDs) are text on purpose: as numbers they lose the zeros.
  if (s.leadingZero > 0) return undefined;
  const ph = s.placeholderValues;
  const missing = ph.length > 0 ? { nullstr: ['', ...ph] } : {};
  const andMissing = ph.length > 0 ? ` and placeholders (${quoted(ph)})` : '';
  if (s.thousands > 0 && s.commaOnly === 0 && s.thousands + s.numeric + s.placeholders === s.nonNull) {
    return offer(
      { kind: 'thousands', columns: [col], message: `"${col}" holds numbers written with thousands separators (e.g. 1,234)${andMissing}, so it was read as text.` },
      { label: `Read "${col}" with "," as thousands separator${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { thousands: ',', ...missing } },
    );
  }
  if (s.decimalComma > 0 && s.decimalComma + s.numeric + s.placeholders === s.nonNull && s.euroGrouped === 0) {
    // A file whose fields are separated by commas quotes "2,2" as it quotes any list, and one with
    // "." decimals in the same column cannot mean "," as a decimal mark: such values are lists or
    // codes (country-codes.csv's "2,2"), and read as decimals they would silently become numbers.
    // Files written with decimal commas separate fields with ";" or tabs.
    if (s.numeric > s.integers || delimiter === ',') return undefined;
    return offer(
      { kind: 'decimal_comma', columns: [col], message: `"${col}" holds numbers with a decimal comma (e.g. 10,5)${andMissing}, so it was read as text.` },
      { label: `Read with "," as decimal separator${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { decimal_separator: ',', ...missing } },
    );
  }
  if (s.euroGrouped > 0 && s.euroSure > 0 && s.euro + s.placeholders === s.nonNull) {
    // 1.234,5: dots group thousands and the comma is the decimal mark (German, Dutch, Italian…).
    return offer(
      { kind: 'decimal_comma', columns: [col], message: `"${col}" holds numbers with a decimal comma and dots between thousands (e.g. 1.234,5)${andMissing}, so it was read as text.` },
      { label: `Read with "," as decimal separator and "." between thousands${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { decimal_separator: ',', thousands: '.', ...missing } },
    );
  }
  if (s.numeric === s.nonNull && s.padded > 0) {
    // DuckDB's cast trims spaces and tabs around a number, so a type override reads them.
    const type = s.integers === s.nonNull ? 'BIGINT' : 'DOUBLE';
    return offer(
      { kind: 'whitespace', columns: [col], message: `"${col}" holds numbers with spaces or tabs around them (${pct(s.padded)} of values), so it was read as text.` },
      { label: `Read "${col}" as numbers (${type})`, options: { types: { [col]: type } } },
    );
  }
  if (s.spaceThousands > 0 && s.spaceThousands + s.numeric + s.placeholders === s.nonNull) {
    return offer(
      { kind: 'thousands', columns: [col], message: `"${col}" holds numbers grouped with spaces (e.g. 1 234)${andMissing}, so it was read as text.` },
      { label: `Read "${col}" with a space as thousands separator${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { thousands: ' ', ...missing } },
    );
  }
  if (s.spaced > 0 && s.spaced + s.numeric === s.nonNull) {
    // Inside a number DuckDB has no option to ignore them.
    return { kind: 'whitespace', columns: [col], message: `"${col}" holds numbers with spaces or tabs inside them (${pct(s.spaced)} of values), so it was read as text; in SQL, CAST(regexp_replace("${col}", '\\s', '', 'g') AS DOUBLE) reads them.` };
  }
  if (s.numeric === 0 && s.timestamps > 0 && s.placeholders > 0 && s.timestamps + s.placeholders === s.nonNull) {
    return offer(
      { kind: 'placeholders', columns: [col], message: `"${col}" holds timestamps but for placeholder text (${quoted(ph)}), so it was read as text.` },
      { label: `Read ${quoted(ph)} as missing`, options: { nullstr: ['', ...ph] } },
      (t) => t !== undefined && /^(TIMESTAMP|DATE)/.test(t),
    );
  }
  if (s.numeric === 0 || s.odd.length === 0 || s.odd.length > 5) return undefined;
  const values = s.odd.map((o) => o.value);
  const shown = s.odd.map((o) => `"${o.value}" ×${o.count.toLocaleString('en-US')}`).join(', ');
  if (values.every(isPlaceholder)) {
    return offer(
      { kind: 'placeholders', columns: [col], message: `"${col}" is numeric but for placeholder text (${shown}), so it was read as text.` },
      { label: `Read ${quoted(values)} as missing`, options: { nullstr: ['', ...values] } },
    );
  }
  // A few stray strings in a column of numbers (one, or up to 5% of values). Where text is more
  // (codes such as "At-Large" among district numbers, the real values of a column whose numbers
  // come from repeated header rows) the column is text.
  if (s.nonNull - s.numeric > Math.max(1, s.nonNull * 0.05)) return undefined;
  return offer(
    { kind: 'mixed_types', columns: [col], message: `"${col}" is mostly numbers (${pct(s.numeric)}) mixed with text (${shown}), so it was read as text.` },
    { label: `Read ${quoted(values)} as missing`, options: { nullstr: ['', ...values] } },
  );
}

/** Joins findings of one kind whose fixes are the same re-read (nullstr, for one, applies to every column). */
export function merged(findings: readonly CsvFinding[], stats: readonly TextStats[]): CsvFinding[] {
  const out: CsvFinding[] = [];
  const groups = new Map<string, CsvFinding[]>();
  for (const f of findings) {
    if (!f.fix || !['placeholders', 'mixed_types', 'thousands', 'decimal_comma'].includes(f.kind)) {
      out.push(f);
      continue;
    }
    const key = `${f.kind} ${JSON.stringify(f.fix.options)}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else {
      groups.set(key, [f]);
      out.push(f);
    }
  }
  return out.map((f) => {
    const g = f.fix ? groups.get(`${f.kind} ${JSON.stringify(f.fix.options)}`) : undefined;
    let one = f;
    if (g && g.length > 1) {
      const cols = g.flatMap((x) => x.columns);
      const times = g.filter((x) => x.message.includes('holds timestamps')).length;
      const held = times === 0 ? 'are numeric' : times === g.length ? 'hold timestamps' : 'hold numbers or timestamps';
      const nulls = (f.fix!.options.nullstr ?? []).filter((v) => v !== '');
      const what: Record<string, string> = {
        placeholders: `${held} but for placeholder text (${quoted(nulls)})`,
        mixed_types: `are mostly numbers mixed with a few text values (${quoted(nulls)})`,
        thousands: `hold numbers written with thousands separators (e.g. 1,234)${nulls.length > 0 ? ` and placeholders (${quoted(nulls)})` : ''}`,
        decimal_comma: `hold numbers with a decimal comma (e.g. 10,5)${nulls.length > 0 ? ` and placeholders (${quoted(nulls)})` : ''}`,
      };
      one = { ...f, columns: cols, message: `${list(cols)} ${what[f.kind]}, so they were read as text.` };
    }
    // nullstr applies to every column: say where else those strings are, and would become missing.
    const nulls = (one.fix?.options.nullstr ?? []).filter((v) => v !== '');
    const elsewhere = nulls.length === 0 ? [] : stats.filter((s) => !one.columns.includes(s.column) && s.placeholderValues.some((v) => nulls.includes(v))).map((s) => s.column);
    return elsewhere.length > 0 ? { ...one, message: `${one.message} The fix also reads those strings as missing in ${list(elsewhere.slice(0, 4))}${elsewhere.length > 4 ? '…' : ''}.` } : one;
  });
}
