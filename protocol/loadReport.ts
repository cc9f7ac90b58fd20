/**
 * What a load found and did, carried in each dataset's info (DatasetInfo.report): the reader it
 * went through, how time-zone-aware timestamps were stored, the CSV options in force, and the
 * load report's findings with their fixes. The model gets it as part of the dataset's context,
 * and a data dictionary can read it from the dataset list.
 */

/** Options a fix adds to DuckDB's read_csv, each as DuckDB names it. */
export interface CsvReadOverrides {
  /** Strings read as NULL (in every column, as DuckDB applies nullstr). */
  nullstr?: string[];
  dateformat?: string;
  /** How timestamps the sniffer left as text are written (strptime format, e.g. %m/%d/%Y %I:%M %p). */
  timestampformat?: string;
  decimal_separator?: ',';
  /** "," (1,234), a space (1 234) or "." with a decimal comma (1.234,5), as in much of Europe. */
  thousands?: ',' | ' ' | '.';
  /** Lines skipped above the header. */
  skip?: number;
  header?: boolean;
  /** The field delimiter, when DuckDB's sniffer missed it (say, a space-delimited file read as one column). */
  delim?: string;
  /** Eurostat bulk TSV: the dimensions column split into one column per dimension, each period as a number and its flags. */
  eurostat?: true;
  /** Column → DuckDB type, for columns the sniffer left as text. */
  types?: Record<string, string>;
}

/**
 * Options a fix gives the app's own spreadsheet and JSON readers (DuckDB reads neither format
 * here). The layout options change what the Excel reader takes as header and data; the value
 * options are applied by DuckDB to the table the reader made, column by column.
 */
export interface TableReadOverrides {
  /** Excel: the sheet row (1-based, as Excel numbers it) holding the header; rows above it are titles or notes. */
  headerRow?: number;
  /** Excel: the last sheet row (1-based) of the data; rows below it are notes, not data. */
  lastRow?: number;
  /** Column → text values read as missing in it (compared after trimming). */
  missing?: Record<string, string[]>;
  /** Column → the type its text is read as (DATE with the column's `dateformats` entry). */
  types?: Record<string, 'BIGINT' | 'DOUBLE' | 'DATE'>;
  /** Column → the strptime format of its text dates. */
  dateformats?: Record<string, string>;
  /** Columns whose text numbers have "," thousands separators, dropped before the number is read. */
  thousandsIn?: string[];
}

/** A fix's options: read_csv's for a CSV or TSV, the reader's for an Excel sheet or a JSON file. */
export type ReadOverrides = CsvReadOverrides | TableReadOverrides;

export type FindingKind =
  | 'ambiguous_dates'
  | 'unparsed_dates'
  | 'placeholders'
  | 'title_line'
  | 'header_as_data'
  /** Eurostat TSV: values with flags ("82.5 b") and ":" for missing, dimensions in one column. */
  | 'flags'
  /** CSV: a delimiter DuckDB's sniffer missed (the file read as one text column). */
  | 'delimiter'
  | 'decimal_comma'
  | 'thousands'
  | 'whitespace'
  | 'mixed_types'
  | 'column_names'
  /** Excel/JSON: a column of numbers written as text. */
  | 'numbers_as_text'
  /** Excel: notes or source lines below the data, read as rows. */
  | 'notes_below';

/** A finding; a reader's own checks narrow `O` to the options that reader takes (CSV or table). */
export interface LoadFinding<O extends ReadOverrides = ReadOverrides> {
  kind: FindingKind;
  /** The columns concerned (empty for the file as a whole). */
  columns: string[];
  /** One sentence a person (and the model) reads. */
  message: string;
  /** The re-read that fixes it; absent when there is nothing to re-read (say, renamed headers). */
  fix?: { label: string; options: O };
  /** Other fixes as likely as `fix` (say, the other reading of day/month dates stored as text). */
  alternatives?: { label: string; options: O }[];
}

/** How a column with time zones was stored. */
export interface TimeZoneNote {
  column: string;
  /** `timestamptz`: kept as TIMESTAMP WITH TIME ZONE (ICU loaded); `utc`: converted to a UTC TIMESTAMP. */
  stored: 'timestamptz' | 'utc';
}

export interface LoadReport {
  /** Which reader made the table, e.g. "DuckDB's CSV reader", "parquet-wasm → Arrow". */
  reader: string;
  timeZones: TimeZoneNote[];
  findings: LoadFinding[];
  /** The options the table was last read with beyond the defaults (a fix applied): read_csv's, or the reader's for Excel/JSON. */
  readOptions?: ReadOverrides;
  /**
   * Every offered fix combined into one read (CSV/TSV: skip, header, delimiter, types, missing
   * strings, separators, date forms together), tried by DuckDB and compared with the first read.
   */
  applyAll?: { label: string; options: ReadOverrides };
  /** What the checks left out on a wide or long file (e.g. the rows they looked at), said beside the findings. */
  sampled?: string;
  /**
   * Why the dataset is a view over its file rather than a table (DatasetInfo.view), e.g.
   * "Attached as a view: the table did not fit in memory."
   */
  attached?: string;
  /** The findings as they were at the first read, so a fix can be undone (re-read without options). */
  original?: LoadFinding[];
  /**
   * The checks are still running: a big load answers with its table first and its findings follow
   * in a later update of the list (the model's `list` does not wait: the table is usable now).
   */
  checking?: true;
}

/** The sentence the dataset's notes and the model's context give for time-zone conversions. */
export function timeZoneSentence(notes: readonly TimeZoneNote[]): string | undefined {
  const utc = notes.filter((n) => n.stored === 'utc').map((n) => n.column);
  const kept = notes.filter((n) => n.stored === 'timestamptz').map((n) => n.column);
  const parts: string[] = [];
  if (utc.length > 0) {
    parts.push(
      `${utc.join(', ')} had time-zone offsets in the file and ${utc.length === 1 ? 'is' : 'are'} stored as TIMESTAMP in UTC (no time-zone support in this engine): hour(), date_trunc() and ::DATE give UTC values`,
    );
  }
  if (kept.length > 0) parts.push(`${kept.join(', ')} ${kept.length === 1 ? 'is' : 'are'} TIMESTAMP WITH TIME ZONE, shown in the session's time zone`);
  return parts.length > 0 ? `${parts.join('; ')}.` : undefined;
}
