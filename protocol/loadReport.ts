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
  /** Column → DuckDB type, for columns the sniffer left as text. */
  types?: Record<string, string>;
}

export type FindingKind =
  | 'ambiguous_dates'
  | 'unparsed_dates'
  | 'placeholders'
  | 'title_line'
  | 'header_as_data'
  | 'decimal_comma'
  | 'thousands'
  | 'whitespace'
  | 'mixed_types'
  | 'column_names';

export interface LoadFinding {
  kind: FindingKind;
  /** The columns concerned (empty for the file as a whole). */
  columns: string[];
  /** One sentence a person (and the model) reads. */
  message: string;
  /** The re-read that fixes it; absent when there is nothing to re-read (say, renamed headers). */
  fix?: { label: string; options: CsvReadOverrides };
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
  /** The read_csv options the table was last read with beyond the defaults (a fix applied). */
  readOptions?: CsvReadOverrides;
  /** The findings as they were at the first read, so a fix can be undone (re-read without options). */
  original?: LoadFinding[];
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
