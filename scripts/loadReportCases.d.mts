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
