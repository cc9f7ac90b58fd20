/**
 * Eurostat's bulk TSV: the first column joins the dimensions with commas under a header such as
 * "unit,sex,age,geo\time", each other column is a period, a value is written with its flags after
 * it ("82.5 b", "84.2 bep": break in series, estimated, provisional) and ":" marks a missing one.
 * DuckDB reads all of it as text; `eurostat` in a fix reads it as one column per dimension, and
 * per period a number and its flags.
 */
import type { ColumnInfo } from '../../../../protocol/data';
import { quoteIdent } from '../../../../shared/sql';
import { eurostatSelect } from '../../engine/csvOptions';
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import type { CsvFinding } from './kit';

/** The dimensions column's header: names joined by commas, the last with "\time" (or "\TIME_PERIOD"). */
const DIMENSIONS = /^[^,\\]+(,[^,\\]+)*\\(time|TIME_PERIOD)$/i;

export const isEurostatHeader = (columns: readonly ColumnInfo[]) => columns.length >= 2 && DIMENSIONS.test(columns[0]!.name.trim());

/** The finding for a Eurostat bulk TSV read as text, with the fix DuckDB tried (the periods then numbers). */
export async function eurostatFinding(engine: Engine, table: string, columns: readonly ColumnInfo[], readSql: string): Promise<CsvFinding | undefined> {
  if (!isEurostatHeader(columns)) return undefined;
  const periods = columns.slice(1);
  const text = periods.filter((c) => c.type === 'VARCHAR');
  const row = rowsOf(
    await engine.query(
      `SELECT ${periods.length > 0 ? periods.map((p, i) => `count(*) FILTER (WHERE regexp_full_match(trim(CAST(${quoteIdent(p.name)} AS VARCHAR)), '[-+]?[0-9.]+\\s*[a-z]+'))::DOUBLE AS f${i}, count(*) FILTER (WHERE trim(CAST(${quoteIdent(p.name)} AS VARCHAR)) = ':')::DOUBLE AS m${i}`).join(', ') : '1'} FROM ${quoteIdent(table)}`,
    ),
  )[0];
  const flagged = periods.reduce((a, _, i) => a + Number(row?.[`f${i}`] ?? 0), 0);
  const missing = periods.reduce((a, _, i) => a + Number(row?.[`m${i}`] ?? 0), 0);
  const dims = columns[0]!.name.replace(/\\(time|TIME_PERIOD)$/i, '').split(',');
  let fix: CsvFinding['fix'] | undefined;
  try {
    // The fix is the read itself: DuckDB must run it and make every period a number.
    const described = rowsOf(await engine.query(`DESCRIBE SELECT ${eurostatSelect(columns)} FROM ${readSql}`)).map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
    if (periods.every((p) => described.find((d) => d.name === p.name.trim())?.type === 'DOUBLE')) fix = { label: 'Read as Eurostat data (a column per dimension, per period a number and its flags)', options: { eurostat: true } };
  } catch {
    fix = undefined;
  }
  return {
    kind: 'flags',
    columns: [],
    message: `A Eurostat bulk table: the first column joins ${dims.length} dimensions (${dims.join(', ')}) and ${text.length} of ${periods.length} period columns were read as text${flagged > 0 ? `, with flags after ${flagged.toLocaleString('en-US')} values (e.g. "82.5 b": b break in series, e estimated, p provisional)` : ''}${missing > 0 ? ` and ":" for ${missing.toLocaleString('en-US')} missing ones` : ''}.${fix ? '' : ' DuckDB could not read the periods as numbers, so no re-read is offered.'}`,
    ...(fix ? { fix } : {}),
  };
}
