/** What the CSV checks share: the placeholder list, the limits, and trying a fix with DuckDB. */
import type { ColumnInfo } from '../../../../protocol/data';
import type { CsvReadOverrides, LoadFinding } from '../../../../protocol/loadReport';
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import { readCsvSql, type ReadOptions } from '../../engine/csvOptions';
import { mergeOverrides } from '../../engine/csvOptions';
import { PLACEHOLDERS, isPlaceholderText } from '../placeholders';

/** A CSV finding: its fixes are read_csv options. */
export type CsvFinding = LoadFinding<CsvReadOverrides>;

/** A placeholder, or a value of only spaces (a CSV field DuckDB did not read as empty). */
export const isPlaceholder = (v: string) => isPlaceholderText(v) || v.trim() === '';
/** The same set as a SQL list, for counting placeholders in DuckDB. */
export const PLACEHOLDER_SQL = [...PLACEHOLDERS].map((p) => `'${p.replace(/'/g, "''")}'`).join(', ');
export const GENERIC_NAME = /^column\d+$/;
export const TRY_NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
export const MAX_TITLE_LINES = 5;
/** A file's first rows as text, each cell a string or null. */
export type TextRows = (string | null)[][];

/** Rows read from the top by `Reader.firstRows`: metadata blocks are short (ONS: 8 lines, World Bank: 4). */
export const FIRST_ROWS = 60;

export interface Reader {
  describe(extra: CsvReadOverrides): Promise<ColumnInfo[] | undefined>;
  /** The read_csv call with `extra` added to the options in force. */
  sql(extra: CsvReadOverrides): string;
  /**
   * The first FIRST_ROWS rows as text, read with `extra` added, without a header (so the header
   * line is row 0), without the types in force, blank lines dropped; undefined when DuckDB cannot
   * read them so. Read once per set of options: the layout checks and the column-name check share
   * the same read (each was 0.3 s of CPU on a 500-column file).
   */
  firstRows(extra?: CsvReadOverrides): Promise<TextRows | undefined>;
}

/**
 * A reader that describes each read once: a DESCRIBE sniffs the file again (1.9 s on a 600-column
 * file), and many findings try the same options (every column with a "-" placeholder tries
 * nullstr ['', '-']: 161 identical DESCRIBEs, 299 s, on a 600 × 5,000 survey file).
 */
export function readerFor(engine: Engine, path: string, read: ReadOptions): Reader {
  const sql = (extra: CsvReadOverrides) => readCsvSql(path, { ...read, overrides: mergeOverrides(read.overrides, extra) });
  const described = new Map<string, Promise<ColumnInfo[] | undefined>>();
  const describeOnce = async (text: string): Promise<ColumnInfo[] | undefined> => {
    try {
      const rows = rowsOf(await engine.query(`DESCRIBE SELECT * FROM ${text}`));
      return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
    } catch {
      return undefined;
    }
  };
  const rowsRead = new Map<string, Promise<TextRows | undefined>>();
  const readRows = async (text: string): Promise<TextRows | undefined> => {
    try {
      const rows = rowsOf(await engine.query(`SELECT * FROM ${text} LIMIT ${FIRST_ROWS}`));
      return rows.map((r) => Object.values(r).map((v) => (v === null || v === undefined ? null : String(v))));
    } catch {
      return undefined;
    }
  };
  return {
    sql,
    firstRows(extra = {}) {
      // Every cell as text: a fix's types name the header's columns, not the column0… of a headerless read.
      const { types: _types, ...rest } = mergeOverrides(read.overrides, { ...extra, header: false });
      const text = readCsvSql(path, { ...read, overrides: rest }).replace(/\)$/, ', all_varchar = true)');
      let p = rowsRead.get(text);
      if (!p) {
        p = readRows(text);
        rowsRead.set(text, p);
      }
      return p.then((rows) => rows?.map((r) => [...r]));
    },
    describe(extra) {
      // Keyed by the SQL itself: options that read the same are one DESCRIBE.
      const text = sql(extra);
      let p = described.get(text);
      if (!p) {
        p = describeOnce(text);
        described.set(text, p);
      }
      return p.then((cols) => cols?.map((c) => ({ ...c })));
    },
  };
}

export const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');
export const isNumericType = (t: string | undefined) => t !== undefined && /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/.test(t);

/**
 * A fix is kept only when DuckDB, reading with it, gives the column the type the finding names and
 * leaves every column it had typed typed: a global option such as nullstr or dateformat must not
 * turn another column back into text.
 */
export function fixWorks(described: readonly ColumnInfo[] | undefined, before: readonly ColumnInfo[], col: string, wanted: (t: string | undefined) => boolean): boolean {
  return described !== undefined && wanted(described.find((c) => c.name === col)?.type) && brokenBy(described, before).length === 0;
}

/** Columns that were typed and would be text again under a fix. */
export function brokenBy(described: readonly ColumnInfo[] | undefined, before: readonly ColumnInfo[]): string[] {
  if (!described) return [];
  return before.filter((b) => b.type !== 'VARCHAR' && described.find((d) => d.name === b.name)?.type === 'VARCHAR').map((b) => b.name);
}

/** Said of a finding whose fix DuckDB would apply to the whole file at the cost of other columns. */
export const costsOthers = (broken: readonly string[]) =>
  ` DuckDB applies that option to the whole file, and with it ${list(broken.slice(0, 3))}${broken.length > 3 ? '…' : ''} would be read as text, so no re-read is offered.`;

export const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');
