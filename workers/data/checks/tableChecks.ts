/**
 * The load report's value checks for a table the JS readers made (an Excel sheet, a JSON file):
 * text columns that are numbers but for placeholders or a few stray strings, numbers stored as
 * text, dates stored as text (day/month readings checked against each other). A fix names, per
 * column, the values read as missing and the type the text is read as; DuckDB applies it to the
 * reader's table (`applyValueFixes`). A fix is offered only when DuckDB, running that very
 * conversion over the whole column, gives the type the finding promises.
 */
import type { ColumnInfo } from '../../../protocol/data';
import type { LoadFinding, TableReadOverrides } from '../../../protocol/loadReport';
import { quoteIdent } from '../../../shared/sql';
import { columnTypes } from '../engine/catalog';
import { rowsOf, type Engine } from '../engine/duckdbEngine';
import { isPlaceholderText as isPlaceholder } from './placeholders';
import { MAX_PLACEHOLDERS, statsOf, type Stats } from './tableStats';
import { conversionOf, conversionSql, converts, tryConversions, type ValueType } from './tableTrials';
import { MAX_TEXT_COLUMNS, checkRowsFor } from './valueBatches';

const MAX_STRAY = 5;

export type TableSource = 'sheet' | 'json';

const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/** Columns read as text because their values were of several kinds (not just numbers and text): named, with nothing to re-read. */
export function mixedKindFindings(mixed: readonly { column: string; families: readonly string[] }[], source: TableSource): LoadFinding[] {
  return mixed.map(({ column, families }) => {
    const kinds = families.length === 2 ? families.join(' and ') : `${families.slice(0, -1).join(', ')} and ${families[families.length - 1]}`;
    const how = families.includes('objects') || families.includes('lists') ? ' (objects and lists as JSON text)' : families.includes('dates') ? ' (dates as ISO text)' : '';
    return {
      kind: 'mixed_types' as const,
      columns: [column],
      message: `"${column}" holds ${kinds} ${source === 'json' ? 'across records' : 'in different cells'}, so it was read as text${how}.`,
    };
  });
}

/** Two fixes together: the later one's columns add to (or replace) the earlier one's. */
export function mergeTableOverrides(a: TableReadOverrides | undefined, b: TableReadOverrides): TableReadOverrides {
  const out: TableReadOverrides = { ...a, ...b };
  for (const k of ['missing', 'types', 'dateformats'] as const) {
    const merged = { ...a?.[k], ...b[k] };
    if (Object.keys(merged).length > 0) (out as Record<string, unknown>)[k] = merged;
  }
  const thousandsIn = [...new Set([...(a?.thousandsIn ?? []), ...(b.thousandsIn ?? [])])];
  if (thousandsIn.length > 0) out.thousandsIn = thousandsIn;
  return out;
}

export function isEmptyTableOverrides(o: TableReadOverrides | undefined): boolean {
  return !o || (o.headerRow === undefined && o.lastRow === undefined && Object.keys(o.missing ?? {}).length === 0 && Object.keys(o.types ?? {}).length === 0);
}

function fixedExprs(columns: readonly ColumnInfo[], o: TableReadOverrides): string[] {
  return columns.flatMap((col) => {
    const v = col.type === 'VARCHAR' ? conversionOf(col.name, o) : undefined;
    return v ? [`${conversionSql(v)} AS ${quoteIdent(col.name)}`] : [];
  });
}

/** Rewrites the reader's text columns as the fix says (a column no longer text, or gone, is left alone). */
export async function applyValueFixes(engine: Engine, table: string, o: TableReadOverrides): Promise<void> {
  const replace = fixedExprs(await columnTypes(engine, table), o);
  if (replace.length === 0) return;
  const scratch = `${table}__fixed`;
  await engine.query(`CREATE TABLE ${quoteIdent(scratch)} AS SELECT * REPLACE (${replace.join(', ')}) FROM ${quoteIdent(table)}`);
  await engine.query(`DROP TABLE ${quoteIdent(table)}`);
  await engine.query(`ALTER TABLE ${quoteIdent(scratch)} RENAME TO ${quoteIdent(table)}`);
}

const shown = (odd: readonly { value: string; count: number }[]) => odd.map((o) => `"${o.value}" ×${o.count.toLocaleString('en-US')}`).join(', ');

/** What a column of numbers written as text would be read as, before DuckDB has tried it. */
interface Proposal {
  finding: Omit<LoadFinding, 'fix'>;
  label: string;
  column: string;
  missing: string[];
  thousands: boolean;
}

function propose(s: Stats, source: TableSource): Proposal | undefined {
  const col = s.column;
  // Numbers with leading zeros are codes (postcodes, identifiers): reading them as numbers loses the zeros.
  if (!s.odd || s.numeric + s.thousands === 0 || s.leadingZeros > 0) return undefined;
  const thousands = s.thousands > 0;
  const make = (finding: Omit<LoadFinding, 'fix'>, label: string, missing: string[]): Proposal => ({ finding, label, column: col, missing, thousands });
  const pct = (k: number) => `${Math.round((k / s.nonNull) * 100)}%`;
  const written = source === 'json' ? 'written as strings' : 'stored as text cells';
  if (s.odd.length === 0 && thousands) {
    return make(
      { kind: 'thousands', columns: [col], message: `"${col}" holds numbers with thousands separators (e.g. 1,234) ${written}, so it was read as text.` },
      `Read "${col}" as numbers`,
      [],
    );
  }
  if (s.odd.length === 0) {
    return make({ kind: 'numbers_as_text', columns: [col], message: `"${col}" holds numbers ${written}, so it was read as text.` }, `Read "${col}" as numbers`, []);
  }
  if (s.odd.length > MAX_PLACEHOLDERS) return undefined;
  const values = s.odd.map((o) => o.value);
  const label = `Read ${list(values)} in "${col}" as missing`;
  if (values.every(isPlaceholder)) {
    return make({ kind: 'placeholders', columns: [col], message: `"${col}" is numeric but for placeholder text (${shown(s.odd)}), so it was read as text.` }, label, values);
  }
  // A few stray strings in a column of numbers; a text column with some numbers in it is not that.
  if (s.numeric + s.thousands < s.nonNull * 0.5 || s.odd.length > MAX_STRAY) return undefined;
  return make(
    {
      kind: 'mixed_types',
      columns: [col],
      message: `"${col}" is mostly numbers (${pct(s.numeric + s.thousands)}) mixed with text (${shown(s.odd)})${source === 'json' ? ' across records' : ''}, so it was read as text.`,
    },
    label,
    values,
  );
}

/**
 * Per proposal, its type (BIGINT when every number in the column is a whole number a double holds
 * exactly, as the readers type numbers; else DOUBLE) and whether DuckDB converts the whole column
 * so, over every row: the DOUBLE conversion is tried, and the BIGINT one is that value cast on
 * (tableTrials.ts writes BIGINT as CAST(CAST(x AS DOUBLE) AS BIGINT)), in the same scan.
 */
async function numberTrials(engine: Engine, table: string, proposals: readonly Proposal[], read: TableReadOverrides, rows: number): Promise<{ type: ValueType; options: TableReadOverrides; works: boolean }[]> {
  const options = (p: Proposal, type: ValueType) =>
    mergeTableOverrides(read, { types: { [p.column]: type }, ...(p.missing.length > 0 ? { missing: { [p.column]: p.missing } } : {}), ...(p.thousands ? { thousandsIn: [p.column] } : {}) });
  const tried = await tryConversions(
    engine,
    table,
    proposals.map((p) => conversionOf(p.column, options(p, 'DOUBLE'))!),
    rows,
    (j) => ({
      // Placeholders and empty text are NULL here, which bool_and skips; so do NaN and infinities.
      whole: `coalesce(bool_and(CASE WHEN isfinite(v${j}) THEN v${j} = trunc(v${j}) AND abs(v${j}) <= 9007199254740991 END), true)`,
      failedInt: `count_if(NOT n${j} AND TRY_CAST(v${j} AS BIGINT) IS NULL)::DOUBLE`,
    }),
  );
  return proposals.map((p, i) => {
    const t = tried[i]!;
    const type: ValueType = t.more.whole === false ? 'DOUBLE' : 'BIGINT';
    const trial = t.trial && type === 'BIGINT' ? { read: t.trial.read, failed: Number(t.more.failedInt ?? 0) } : t.trial;
    return { type, options: options(p, type), works: converts(trial) };
  });
}

/** Each proposal's finding, with its fix when DuckDB, converting the column so over every row, gives the promised type. */
async function numberFindings(engine: Engine, table: string, proposals: readonly Proposal[], read: TableReadOverrides, rows: number): Promise<LoadFinding[]> {
  if (proposals.length === 0) return [];
  const tried = await numberTrials(engine, table, proposals, read, rows);
  return proposals.map((p, i) => (tried[i]!.works ? { ...p.finding, fix: { label: p.label, options: tried[i]!.options } } : p.finding));
}

const reading = (f: string) => {
  const sep = f.charAt(2);
  const eg = `07${sep}01${sep}2010`;
  return f.startsWith('%d') ? `day first (${eg} = 7 January 2010)` : f.startsWith('%m') ? `month first (${eg} = July 1, 2010)` : `as ${f}`;
};

/**
 * Text columns of dates: each reading (day or month first) is tried on every value of each column.
 * Columns of one file share a convention, so a column that reads only one way settles the
 * columns that read both ways; columns that read both ways on their own are named as ambiguous,
 * with both readings on offer.
 */
async function dateFindings(engine: Engine, table: string, all: readonly Stats[], read: TableReadOverrides, source: TableSource, rows: number): Promise<LoadFinding[]> {
  // Dates but for placeholders: a column of "-" with a few dates in it is still a column of dates.
  const cols = all.filter((s) => s.dmy + s.ymd > 0 && s.dateOdd !== undefined && s.dateOdd.length <= MAX_PLACEHOLDERS && s.dateOdd.every((o) => isPlaceholder(o.value)));
  if (cols.length === 0) return [];
  const missingOf = (s: Stats) => (s.dateOdd ?? []).map((o) => o.value);
  const fixFor = (group: readonly Stats[], format: (s: Stats) => string) =>
    group.reduce<TableReadOverrides>(
      (o, s) => mergeTableOverrides(o, { types: { [s.column]: 'DATE' }, dateformats: { [s.column]: format(s) }, ...(missingOf(s).length > 0 ? { missing: { [s.column]: missingOf(s) } } : {}) }),
      read,
    );
  // Every reading each column may take, tried over every row in a few statements (was one per column and reading).
  const iso = cols.filter((s) => s.ymd >= s.dmy);
  const dayMonth = cols.filter((x) => x.ymd < x.dmy).map((s) => {
    const sep = s.sampleDate?.match(/^\d{1,2}([/.-])/)?.[1] ?? '/';
    return { s, m: `%m${sep}%d${sep}%Y`, d: `%d${sep}%m${sep}%Y` };
  });
  const asked = [...iso.map((s) => ({ s, f: '%Y-%m-%d' })), ...dayMonth.flatMap(({ s, m, d }) => [{ s, f: m }, { s, f: d }])];
  const tried = await tryConversions(engine, table, asked.map(({ s, f }) => conversionOf(s.column, fixFor([s], () => f))!), rows);
  const works = (s: Stats, f: string) => converts(tried[asked.findIndex((a) => a.s === s && a.f === f)]?.trial);
  const stored = source === 'json' ? 'written as strings' : 'stored as text';
  const out: LoadFinding[] = [];
  const isoOk = iso.filter((s) => works(s, '%Y-%m-%d'));
  if (isoOk.length > 0) {
    const names = isoOk.map((s) => s.column);
    out.push({
      kind: 'unparsed_dates',
      columns: names,
      message: `${list(names)} ${names.length === 1 ? 'holds dates' : 'hold dates'} ${stored} (e.g. 2024-01-31), so ${names.length === 1 ? 'it was' : 'they were'} read as text.`,
      fix: { label: `Read ${list(names)} as dates`, options: fixFor(isoOk, () => '%Y-%m-%d') },
    });
  }
  const month = new Map<string, string>();
  const day = new Map<string, string>();
  for (const { s, m, d } of dayMonth) {
    if (works(s, m)) month.set(s.column, m);
    if (works(s, d)) day.set(s.column, d);
  }
  const byName = new Map(cols.map((s) => [s.column, s]));
  const onlyMonth = [...month.keys()].filter((c) => !day.has(c));
  const onlyDay = [...day.keys()].filter((c) => !month.has(c));
  const both = [...month.keys()].filter((c) => day.has(c));
  const order = (names: string[]) => cols.map((s) => s.column).filter((c) => names.includes(c));
  const finding = (unordered: string[], formats: Map<string, string>, because?: string): LoadFinding => {
    const names = order(unordered);
    const f = formats.get(names[0]!)!;
    return {
      kind: 'unparsed_dates',
      columns: names,
      message: `${list(names)} ${names.length === 1 ? 'holds dates' : 'hold dates'} ${stored}; read ${reading(f)}, every value is a date${because ?? ''}.`,
      fix: { label: `Read dates ${f.startsWith('%d') ? 'day' : 'month'} first (${f})`, options: fixFor(names.map((n) => byName.get(n)!), (s) => formats.get(s.column)!) },
    };
  };
  // Only one reading fits some columns, and no column needs the other: it settles the ambiguous ones.
  if (onlyMonth.length > 0 && onlyDay.length === 0) {
    out.push(finding([...onlyMonth, ...both], month, both.length > 0 ? ` (${list(both)} would also read day first, but ${list(onlyMonth)} would not)` : ''));
    return out;
  }
  if (onlyDay.length > 0 && onlyMonth.length === 0) {
    out.push(finding([...onlyDay, ...both], day, both.length > 0 ? ` (${list(both)} would also read month first, but ${list(onlyDay)} would not)` : ''));
    return out;
  }
  if (onlyMonth.length > 0) out.push(finding(onlyMonth, month));
  if (onlyDay.length > 0) out.push(finding(onlyDay, day));
  if (both.length > 0) {
    const group = both.map((n) => byName.get(n)!);
    const f = month.get(both[0]!)!;
    out.push({
      kind: 'ambiguous_dates',
      columns: both,
      message: `${list(both)} ${both.length === 1 ? 'holds dates' : 'hold dates'} ${stored} that read both ${reading(f)} and ${reading(day.get(both[0]!)!)}: choose which the file means.`,
      fix: { label: `Read dates month first (${f})`, options: fixFor(group, (s) => month.get(s.column)!) },
      alternatives: [{ label: `Read dates day first (${day.get(both[0]!)!})`, options: fixFor(group, (s) => day.get(s.column)!) }],
    });
  }
  return out;
}

const GROUPED = { numbers_as_text: 'numbers', thousands: 'numbers with thousands separators (e.g. 1,234)' } as const;

/**
 * Whole columns of numbers stored as text are one finding with one fix, however many columns:
 * a wide table (a column a year, say) would otherwise list the same finding fifty times.
 */
function groupWholeColumns(findings: readonly LoadFinding[], source: TableSource): LoadFinding[] {
  const out: LoadFinding[] = [];
  for (const kind of Object.keys(GROUPED) as (keyof typeof GROUPED)[]) {
    const group = findings.filter((f) => f.kind === kind && f.fix);
    if (group.length < 2) continue;
    const columns = group.flatMap((f) => f.columns);
    const shownNames = columns.length > 6 ? `${list(columns.slice(0, 6))}… (${columns.length} columns)` : list(columns);
    out.push({
      kind,
      columns,
      message: `${shownNames} hold ${GROUPED[kind]} ${source === 'json' ? 'written as strings' : 'stored as text cells'}, so they were read as text.`,
      fix: { label: `Read these ${columns.length} columns as numbers`, options: group.reduce<TableReadOverrides>((o, f) => mergeTableOverrides(o, f.fix!.options as TableReadOverrides), {}) },
    });
  }
  // Placeholders (and a few stray strings): one finding per sheet each (SIPRI's ". ." and "xxx" in
  // 52 year columns were 52 buttons).
  for (const kind of ['placeholders', 'mixed_types'] as const) {
    const ph = findings.filter((f) => f.kind === kind && f.fix);
    if (ph.length < 2) continue;
    const columns = ph.flatMap((f) => f.columns);
    const missing = ph.flatMap((f) => Object.values((f.fix!.options as TableReadOverrides).missing ?? {}).flat());
    const values = [...new Set(missing)];
    const shownNames = columns.length > 6 ? `${list(columns.slice(0, 6))}… (${columns.length} columns)` : list(columns);
    const shownValues = `${values.slice(0, 8).map((v) => `"${v}"`).join(', ')}${values.length > 8 ? '…' : ''}`;
    out.push({
      kind,
      columns,
      message: `${shownNames} are ${kind === 'placeholders' ? `numeric but for placeholder text (${shownValues})` : `mostly numbers mixed with a few text values (${shownValues})`}, so they were read as text.`,
      fix: { label: `Read ${shownValues} in these ${columns.length} columns as missing`, options: ph.reduce<TableReadOverrides>((o, f) => mergeTableOverrides(o, f.fix!.options as TableReadOverrides), {}) },
    });
  }
  const grouped = new Set(out.flatMap((f) => f.columns));
  return [...findings.filter((f) => !(f.fix && f.columns.length === 1 && grouped.has(f.columns[0]!))), ...out];
}

/** The value findings for a reader's table, and what they left out on a wide or long one. */
export interface TableChecks {
  findings: LoadFinding[];
  /** Said beside the findings when the statistics looked at the first rows only (LoadReport.sampled). */
  sampled?: string;
}

/**
 * The value findings for a reader's table; `read` is the fix in force (each new fix builds on
 * it). The statistics look at the first rows (fewer on a wide table, valueBatches.ts); each fix is
 * tried on every row before it is offered.
 */
export async function tableFindings(engine: Engine, table: string, columns: readonly ColumnInfo[], read: TableReadOverrides, source: TableSource): Promise<TableChecks> {
  const text = columns.filter((c) => c.type === 'VARCHAR').slice(0, MAX_TEXT_COLUMNS);
  if (text.length === 0) return { findings: [] };
  const total = Number(rowsOf(await engine.query(`SELECT count(*)::DOUBLE AS n FROM ${quoteIdent(table)}`))[0]?.n ?? 0);
  const rows = checkRowsFor(columns.length);
  const all = await statsOf(engine, table, text.map((c) => c.name), rows);
  const dates = await dateFindings(engine, table, all, read, source, total);
  const dated = new Set(dates.flatMap((f) => f.columns));
  const proposals = all.filter((s) => s.nonNull > 0 && !dated.has(s.column)).flatMap((s) => propose(s, source) ?? []);
  const perColumn = await numberFindings(engine, table, proposals, read, total);
  const findings = [...dates, ...groupWholeColumns(perColumn, source)];
  const sampled = total > rows ? `The value checks looked at the first ${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows; each fix was tried by DuckDB on every row before it was offered.` : undefined;
  return { findings, ...(sampled ? { sampled } : {}) };
}
