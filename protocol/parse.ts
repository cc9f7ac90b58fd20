/**
 * The parse worker's boundary (workers/parse/): a file the user imports is read and parsed off
 * the page's main thread — a data dictionary (CSV, JSON, YAML, dbt schema.yml with its .md doc
 * blocks) and a Jupyter notebook. Each outcome is a value: `ok: false` carries a message for the
 * user; a Cancel ends the worker (src/files/parseClient.ts), which no parse can outrun.
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

/** A notebook cell as read from the .ipynb: its kind, source and Dataseer's own mark (`setup`). */
export interface RawNotebookCell {
  kind: 'markdown' | 'code';
  source: string;
  role?: string;
}

export type ParseFailure = { ok: false; message: string; cancelled?: true };
export type DictionaryParseOutcome = { ok: true; result: DictionaryImport } | ParseFailure;
export type NotebookParseOutcome = { ok: true; cells: RawNotebookCell[] } | ParseFailure;

export type ParseRequests = {
  /** `file` read as `dataset`'s dictionary fitted to `columns`; `docs`: the .md files of a dbt project's doc blocks. */
  dictionary: {
    req: { jobId: string; file: Blob; fileName: string; dataset: string; columns: string[]; docs: Blob[] };
    res: DictionaryParseOutcome;
  };
  /** An .ipynb's cells; the page makes its own cells of them. */
  notebook: { req: { jobId: string; file: Blob }; res: NotebookParseOutcome };
};

/** How far a job is: the bytes read, then parsing (no fraction: a parser does not say). */
export type ParseEvent = { type: 'progress'; jobId: string; stage: 'reading'; loaded: number; total: number } | { type: 'progress'; jobId: string; stage: 'parsing' };
