/**
 * A fix is verified before it is offered: DuckDB reads the file with it and the re-read is
 * compared with the first read, row by row. A value fix (missing strings, separators, types, date
 * forms) leaves the rows where they are, so the two reads line up by position.
 */
import type { ColumnInfo } from '../../../../protocol/data';
import type { CsvReadOverrides } from '../../../../protocol/loadReport';
import { quoteIdent, quoteLiteral } from '../../../../shared/sql';
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import { CHECK_ROWS } from '../valueBatches';
import { isPlaceholder, list, type CsvFinding, type Reader } from './kit';

/**
 * Years a person wrote in full: a two-digit year read with %Y comes out as year 18 (the
 * microsoft.csv "19-Jan-18" case), which no statistics file means.
 */
export const MIN_PLAUSIBLE_YEAR = 1000;
export const maxPlausibleYear = () => new Date().getUTCFullYear() + 100;

/** Checks (a column's, or a date column's two) compared per statement on a wide file. */
export const COMPARE_BATCH = 250;

const isTime = (t: string) => /^(DATE|TIMESTAMP)/.test(t);

/** Whether a fix changes the file's layout (which line is the header, the delimiter): its rows do not line up with the first read's. */
export const isLayoutFix = (o: CsvReadOverrides) => o.skip !== undefined || o.header !== undefined || o.delim !== undefined || o.eurostat === true;

/**
 * Why reading with `options` would damage values the first read had right, or undefined when it
 * keeps them all: a column the first read typed must keep every value; a text value that is not
 * blank and not one of the fix's missing strings must stay a value; a date or timestamp the fix
 * makes must have a plausible year.
 */
export async function damageOf(engine: Engine, table: string, reader: Reader, options: CsvReadOverrides, before: readonly ColumnInfo[], described: readonly ColumnInfo[] | undefined, rowLimit = CHECK_ROWS): Promise<string | undefined> {
  if (isLayoutFix(options) || !described) return undefined;
  const after = new Map(described.map((c) => [c.name, c.type]));
  const cols = before.filter((c) => after.has(c.name));
  if (cols.length === 0) return undefined;
  const missing = (options.nullstr ?? []).filter((v) => v !== '');
  // One entry per check: a value that would change or be lost (`bad`), or a date's year (`year`).
  const checks: { col: string; kind: 'changed' | 'lost' | 'years'; key: string; bad?: string; year?: string }[] = [];
  cols.forEach((c, i) => {
    const a = `a.${quoteIdent(c.name)}`;
    const b = `b.${quoteIdent(c.name)}`;
    const t = after.get(c.name)!;
    // year() of a TIMESTAMP WITH TIME ZONE needs ICU; the cast to TIMESTAMP (UTC) does not.
    const years = () => checks.push({ col: c.name, kind: 'years', key: `y${i}`, year: `year(CAST(${b} AS TIMESTAMP))` });
    // A date form (day or month first) is the very thing such a fix changes in the date columns: their years must still be plausible.
    if (isTime(c.type) && isTime(t) && (options.dateformat !== undefined || options.timestampformat !== undefined)) {
      years();
      return;
    }
    if (c.type !== 'VARCHAR') {
      // Text again is brokenBy's to say; another type is compared in the first read's type.
      if (t === 'VARCHAR') return;
      const same = t === c.type ? b : `TRY_CAST(${b} AS ${c.type})`;
      checks.push({ col: c.name, kind: 'changed', key: `c${i}`, bad: `${a} IS DISTINCT FROM ${same}` });
      return;
    }
    const kept = missing.length > 0 ? ` AND trim(${a}) NOT IN (${missing.map((m) => quoteLiteral(m.trim())).join(', ')})` : '';
    checks.push({ col: c.name, kind: 'lost', key: `l${i}`, bad: `${a} IS NOT NULL AND trim(${a}) <> ''${kept} AND ${b} IS NULL` });
    if (isTime(t)) years();
  });
  // Each side numbers its rows, so a re-read with more or fewer rows shows as unpaired rows.
  const side = (src: string, p: string, names?: readonly string[]) => `(SELECT ${names ? names.map(quoteIdent).join(', ') : '*'}, 1 AS ${p}_rows_ FROM ${src} LIMIT ${rowLimit})`;
  // The checks as rows (check, bad, year) grouped by check, not a FILTERed aggregate per column:
  // DuckDB slices the whole joined row for each FILTER, which cost 28 s on a 600-column file
  // (3 s this way). Check -1 counts the rows only one side has.
  const grouped = async (b: string, from: number, to: number, names?: readonly string[]) => {
    const part = checks.slice(from, to);
    const ids = [-1, ...part.map((_, k) => from + k)].join(', ');
    const bad = ['a_rows_ IS NULL OR b_rows_ IS NULL', ...part.map((ch) => ch.bad ?? 'NULL')].map((e) => `(${e})`).join(', ');
    const year = ['NULL', ...part.map((ch) => ch.year ?? 'NULL')].map((e) => `(${e})::BIGINT`).join(', ');
    const pairs = `SELECT unnest([${ids}]) AS k, unnest([${bad}]) AS bad, unnest([${year}]) AS y FROM ${side(quoteIdent(table), 'a', names)} a POSITIONAL JOIN ${side(b, 'b', names)} b`;
    return rowsOf(
      await engine.query(
        `SELECT k, count(*) FILTER (WHERE bad OR y < ${MIN_PLAUSIBLE_YEAR} OR y > ${maxPlausibleYear()})::DOUBLE AS n, min(y) AS ymin, max(y) AS ymax FROM (${pairs}) GROUP BY k`,
      ),
    );
  };
  let row: Record<string, unknown> | undefined;
  // A wide file's checks in batches (issue 37): one statement of 2,000 columns' checks cost 3.6 s
  // of CPU (24–52 s on a loaded machine) and could be neither followed nor stopped between
  // columns. The re-read is then made once, into a temporary table the batches compare with.
  const batched = checks.length > COMPARE_BATCH;
  const scratch = quoteIdent(`${table}__compare`);
  try {
    const found: Record<string, unknown>[] = [];
    if (!batched) found.push(...(await grouped(reader.sql(options), 0, checks.length)));
    else {
      await engine.query(`CREATE OR REPLACE TEMP TABLE ${scratch} AS SELECT * FROM ${reader.sql(options)} LIMIT ${rowLimit}`);
      for (let from = 0; from < checks.length; from += COMPARE_BATCH) {
        const names = [...new Set(checks.slice(from, from + COMPARE_BATCH).map((ch) => ch.col))];
        found.push(...(await grouped(scratch, from, from + COMPARE_BATCH, names)));
      }
    }
    row = {};
    for (const g of found) {
      const k = Number(g.k);
      if (k < 0) {
        row.unpaired = Number(row.unpaired ?? 0) + Number(g.n);
        continue;
      }
      const ch = checks[k];
      if (!ch) continue;
      row[ch.key] = g.n;
      if (ch.kind === 'years') {
        row[`ymin${ch.key.slice(1)}`] = g.ymin;
        row[`ymax${ch.key.slice(1)}`] = g.ymax;
      }
    }
  } catch {
    return ' DuckDB could not compare a read with it to this one, so no re-read is offered.';
  } finally {
    if (batched) await engine.query(`DROP TABLE IF EXISTS ${scratch}`).catch(() => undefined);
  }
  if (!row) return undefined;
  if (Number(row.unpaired) > 0) return ' Read with it the file has a different number of rows, so no re-read is offered.';
  const reasons: string[] = [];
  for (const ch of checks) {
    const n = Number(row[ch.key] ?? 0);
    if (n === 0) continue;
    const i = ch.key.slice(1);
    const many = n === 1 ? 'one value' : `${n.toLocaleString('en-US')} values`;
    if (ch.kind === 'changed') reasons.push(`${many} of ${list([ch.col])} would change`);
    else if (ch.kind === 'lost') reasons.push(`${many} of ${list([ch.col])} would be read as missing`);
    else reasons.push(`${list([ch.col])} would get years from ${String(row[`ymin${i}`])} to ${String(row[`ymax${i}`])}, outside the years a file means`);
  }
  return reasons.length > 0 ? ` Read with it, ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? '…' : ''}, so no re-read is offered.` : undefined;
}

/** Keeps each finding's fix only when the re-read keeps every value the first read had right; else the finding says why. */
export async function verified(engine: Engine, table: string, reader: Reader, before: readonly ColumnInfo[], findings: readonly CsvFinding[], rowLimit = CHECK_ROWS): Promise<CsvFinding[]> {
  const out: CsvFinding[] = [];
  let first: Record<string, unknown> | undefined;
  for (const f of findings) {
    if (!f.fix || isLayoutFix(f.fix.options)) {
      out.push(f);
      continue;
    }
    // A stray word read as missing in the table's first row is where a header cell would be (the
    // radiasol_diaria.csv "Inclinada"): a layout the checks did not see, not a missing value.
    const strays = (f.fix.options.nullstr ?? []).filter((v) => !isPlaceholder(v));
    if (strays.length > 0) first ??= rowsOf(await engine.query(`SELECT * FROM ${quoteIdent(table)} LIMIT 1`))[0] ?? {};
    const header = strays.length > 0 ? f.columns.map((c) => first?.[c]).find((v) => typeof v === 'string' && strays.includes(v.trim())) : undefined;
    const why = header !== undefined
      ? ` "${String(header)}" is in the first row, where a header cell would be: the file may have lines above its header, so no re-read is offered.`
      : await damageOf(engine, table, reader, f.fix.options, before, await reader.describe(f.fix.options), rowLimit);
    if (!why) {
      out.push(f);
      continue;
    }
    const { fix: _dropped, alternatives: _alts, ...rest } = f;
    out.push({ ...rest, message: `${f.message}${why}` });
  }
  return out;
}
