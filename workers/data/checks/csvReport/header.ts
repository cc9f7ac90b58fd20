/** The header checks: a title line above it, the header read as data, empty or repeated names. */
import type { ColumnInfo } from '../../../../protocol/data';
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import type { ReadOptions } from '../../engine/csvOptions';
import { quoteIdent } from '../../../../shared/sql';
import { CHECK_ROWS, STATS_BATCH, valuePairs } from '../valueBatches';
import { GENERIC_NAME, MAX_TITLE_LINES, PLACEHOLDER_SQL, TRY_NUMBER, isPlaceholder, list, type CsvFinding, type Reader } from './kit';

export async function titleLine(engine: Engine, table: string, reader: Reader, columns: readonly ColumnInfo[], read: ReadOptions): Promise<CsvFinding | undefined> {
  if (columns.length < 2 || !columns.slice(1).every((c) => GENERIC_NAME.test(c.name))) return undefined;
  if (!columns.every((c) => c.type === 'VARCHAR')) {
    // Years as column names can type a column even under a title (UK statistics tables): then the
    // first line must be short, padded with NULLs as a title is.
    const first = rowsOf(await engine.query(`SELECT * FROM ${quoteIdent(table)} LIMIT 1`))[0];
    const empty = columns.filter((c) => first?.[c.name] === null || first?.[c.name] === undefined).length;
    if (empty < columns.length / 2) return undefined;
  }
  const already = read.overrides?.skip ?? 0;
  for (let k = 1; k <= MAX_TITLE_LINES; k++) {
    const described = await reader.describe({ skip: already + k, header: true });
    if (!described || described.length < 2 || described.some((c) => GENERIC_NAME.test(c.name))) continue;
    return {
      kind: 'title_line',
      columns: [],
      message: `The file's first ${k === 1 ? 'line is a title or note' : `${k} lines are a title or notes`} above the header, so every column was read as text named column0, column1…; the header is ${list(described.slice(0, 4).map((c) => c.name))}${described.length > 4 ? '…' : ''}.`,
      fix: { label: `Skip ${k === 1 ? 'the first line' : `the first ${k} lines`}`, options: { skip: already + k, header: true } },
    };
  }
  return undefined;
}

/** Empty or repeated names in the header line (row 0 of the first rows, which the layout checks read too). */
export async function columnNames(reader: Reader, read: ReadOptions, columns: readonly ColumnInfo[]): Promise<CsvFinding | undefined> {
  if (read.overrides?.header === false) return undefined;
  const raw = (await reader.firstRows())?.[0];
  if (!raw) return undefined;
  const empty: string[] = [];
  const repeated: string[] = [];
  const seen = new Set<string>();
  raw.forEach((name, i) => {
    const made = columns[i]?.name;
    if (made === undefined) return;
    if (name === null || name.trim() === '') empty.push(made);
    else if (seen.has(name.toLowerCase())) repeated.push(`"${name}" → "${made}"`);
    if (name !== null) seen.add(name.toLowerCase());
  });
  if (empty.length === 0 && repeated.length === 0) return undefined;
  const parts: string[] = [];
  if (empty.length > 0) parts.push(`${empty.length === 1 ? 'an empty header was' : `${empty.length} empty headers were`} named ${list(empty)}`);
  if (repeated.length > 0) parts.push(`repeated headers were renamed (${repeated.join(', ')})`);
  return { kind: 'column_names', columns: [...empty, ...repeated.map((r) => r.split(' → ')[1]!.replace(/"/g, ''))], message: `Column names: ${parts.join('; ')}.` };
}

/**
 * A header DuckDB's sniffer took for data: every column is named column0, column1…, and read with
 * header=true the first line names them while a column gains a type (the names were what kept it
 * text), or the first line is the counter 0, 1, 2… that pandas and R write for unnamed columns.
 */
export async function headerAsData(engine: Engine, reader: Reader, table: string, columns: readonly ColumnInfo[], read: ReadOptions): Promise<CsvFinding | undefined> {
  if (columns.length < 2 || read.overrides?.header !== undefined || !columns.every((c) => GENERIC_NAME.test(c.name))) return undefined;
  const described = await reader.describe({ header: true });
  if (!described || described.length !== columns.length || described.filter((c) => !GENERIC_NAME.test(c.name)).length < columns.length / 2) return undefined;
  const typed = described.some((d, i) => columns[i]!.type === 'VARCHAR' && d.type !== 'VARCHAR');
  const first = rowsOf(await engine.query(`SELECT * FROM ${quoteIdent(table)} LIMIT 1`))[0];
  const cells = columns.map((c) => (first?.[c.name] === null || first?.[c.name] === undefined ? '' : String(first[c.name])));
  let run = 0;
  let best = 0;
  for (let i = 0; i < cells.length; i++) {
    const prev = i > 0 ? cells[i - 1]! : '';
    run = /^\d+$/.test(cells[i]!) && /^\d+$/.test(prev) && Number(cells[i]) === Number(prev) + 1 ? run + 1 : /^\d+$/.test(cells[i]!) ? 1 : 0;
    best = Math.max(best, run);
  }
  // Or years as column names (wide statistics tables: Area code, Area name, 2019, 2020…).
  const years = cells.filter((v) => /^(18|19|20)\d\d$/.test(v)).map(Number);
  const yearHeader = years.length >= 2 && years.every((y, i) => i === 0 || y > years[i - 1]!) && cells.every((v) => v !== '' && (/^(18|19|20)\d\d$/.test(v) || !TRY_NUMBER.test(v)));
  // A name above a column of numbers (e.g. "length" over day counts and a few "N/A"): STATS_BATCH
  // columns per statement, until one is found (a statement per column on a 2,000-column file).
  const named = columns.filter((c, i) => c.type === 'VARCHAR' && !isPlaceholder(cells[i]!) && !TRY_NUMBER.test(cells[i]!)).map((c) => c.name);
  let numbersUnderName = false;
  for (let k = 0; k < named.length && !(typed || best >= 3 || yearHeader || numbersUnderName); k += STATS_BATCH) {
    const pairs = valuePairs(table, named.slice(k, k + STATS_BATCH), CHECK_ROWS, 1);
    const counts = rowsOf(
      await engine.query(
        `SELECT i, count(*)::DOUBLE AS n, count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NOT NULL)::DOUBLE AS num FROM ${pairs} WHERE NOT (lower(trim(c)) IN (${PLACEHOLDER_SQL}) OR trim(c) = '') GROUP BY i`,
      ),
    );
    numbersUnderName = counts.some((r) => Number(r.n) > 0 && Number(r.num) >= Number(r.n) * 0.9);
  }
  if (!typed && best < 3 && !yearHeader && !numbersUnderName) return undefined;
  const names = described.map((c) => c.name);
  return {
    kind: 'header_as_data',
    columns: [],
    message: `The file's first line is its header (${list(names.slice(0, 4))}${names.length > 4 ? '…' : ''}) but was read as a row of data, so the columns are named column0, column1…${typed ? ' and some numbers were read as text' : ''}.`,
    fix: { label: 'Read the first line as the header', options: { header: true } },
  };
}
