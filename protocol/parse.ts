/**
 * The parse worker's boundary (workers/parse/): files the user imports are read and parsed off
 * the page's main thread — a data dictionary or a whole dbt project (CSV, JSON, YAML files with
 * their .md doc blocks, semantic models and metrics) and a Jupyter notebook. Each outcome is a
 * value: `ok: false` carries a message for the user; a Cancel ends the worker
 * (src/files/parseClient.ts), which no parse can outrun.
 */
import type { DataDictionary } from './agent/knowledge';

/**
 * What a dictionary import read (shared/knowledge/dictionaryImport.ts's ImportResult, which the
 * worker returns as this type: a change there that this does not follow fails the typecheck).
 */
export interface DictionaryImport {
  dictionary: DataDictionary;
  warnings: string[];
  given: Record<string, ('description' | 'unit' | 'role' | 'codes' | 'missing')[]>;
  givenTable: ('row_meaning' | 'grain' | 'caveats' | 'joins')[];
}

/** A metric translated from dbt (shared/knowledge/dbtMetrics.ts's MetricDraft), not yet checked by DuckDB. */
export interface MetricDraft {
  name: string;
  dataset: string;
  expression: string;
  description: string;
}

/**
 * What the worker read of a dbt project (or of one dictionary file, a project of one) for a
 * dataset: its dictionary, unmerged (the page merges it into the copy being edited), and its
 * metrics translated; only DuckDB's checks of those are left to the page, which has the data.
 */
export interface ProjectRead {
  /** The schema files' names, for the preview ("orders.yml, metrics.yml"). */
  fileName: string;
  /** Null when no file describes the dataset's columns (metrics alone are imported). */
  dictionary: DictionaryImport | null;
  metrics: MetricDraft[];
  /** Metrics dbt's shape cannot give as one expression over a loaded table, with why. */
  skipped: { name: string; reason: string }[];
  warnings: string[];
}

/** A notebook cell as read from the .ipynb: its kind, source and Dataseer's own mark (`setup`). */
export interface RawNotebookCell {
  kind: 'markdown' | 'code';
  source: string;
  role?: string;
}

export type ParseFailure = { ok: false; message: string; cancelled?: true };
export type ProjectParseOutcome = { ok: true; result: ProjectRead } | ParseFailure;
export type NotebookParseOutcome = { ok: true; cells: RawNotebookCell[] } | ParseFailure;

export type ParseRequests = {
  /**
   * The picked files read as `dataset`'s dictionary fitted to `columns`, and the metrics they define
   * translated for the loaded `datasets`: one dictionary file, or a dbt project's YAML files with
   * the .md files of their doc blocks.
   */
  project: {
    req: { jobId: string; files: { name: string; file: Blob }[]; dataset: string; columns: string[]; datasets: string[] };
    res: ProjectParseOutcome;
  };
  /** An .ipynb's cells; the page makes its own cells of them. */
  notebook: { req: { jobId: string; file: Blob }; res: NotebookParseOutcome };
};

/**
 * How far a job is: the bytes read, then parsing — file by file for a project (`done` of `of`);
 * within one file no fraction (a parser does not say).
 */
export type ParseEvent =
  | { type: 'progress'; jobId: string; stage: 'reading'; loaded: number; total: number }
  | { type: 'progress'; jobId: string; stage: 'parsing'; done?: number; of?: number };
