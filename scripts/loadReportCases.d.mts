// Types for loadReportCases.mjs, for the TypeScript tests that read the same cases.
export interface LoadReportCase {
  file: string;
  text: string;
  kind: string | null;
  columns: string[];
  fix: Record<string, unknown> | null;
  fixedTypes?: Record<string, string>;
}
export const LOAD_REPORT_CASES: LoadReportCase[];
export const TIMEZONE_CSV: { file: string; text: string };
export interface TableReportCase {
  file: string;
  rows?: (string | number | boolean | Date | null)[][];
  json?: string;
  kind: string | null;
  columns: string[];
  fix: Record<string, unknown> | null;
  clean?: Record<string, unknown>[];
  alternative?: { fix: Record<string, unknown>; clean: Record<string, unknown>[] };
}
export const TABLE_REPORT_CASES: TableReportCase[];
