/**
 * Knowledge that persists across questions (issue 24): a data dictionary per dataset and the
 * user's workspace rules. The page edits them, IndexedDB keeps them (workers/agent/knowledge/
 * store.ts), and every run's prompt carries them. The draft the model writes is the
 * `data_dictionary` structured output; what is stored adds who wrote it and whether the user
 * accepted it.
 */
import { z } from 'zod';

export const COLUMN_ROLES = ['identifier', 'measure', 'dimension', 'date', 'flag', 'text', 'other'] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

export const CodeMeaningSchema = z.object({
  code: z.string().describe('A value as it appears in the column'),
  meaning: z.string().describe('What that value means'),
});
export type CodeMeaning = z.infer<typeof CodeMeaningSchema>;

export const ColumnEntrySchema = z.object({
  name: z.string().describe('Column name exactly as in the table'),
  description: z.string().describe('What the column holds, in one sentence'),
  unit: z.string().describe('Unit of measure, or an empty string'),
  role: z.enum(COLUMN_ROLES).describe('identifier, measure, dimension, date, flag, text or other'),
  codes: z.array(CodeMeaningSchema).describe('Meanings of coded values (empty when not coded)'),
  missing: z.array(z.string()).describe('Placeholder values that mean "missing", e.g. ".", "-9", "N/A" (empty when none)'),
});
export type ColumnEntry = z.infer<typeof ColumnEntrySchema>;

export const JoinKeySchema = z.object({
  column: z.string().describe('Column of this dataset'),
  other_dataset: z.string().describe('Table it joins to'),
  other_column: z.string().describe('Column of that table it matches'),
});
export type JoinKey = z.infer<typeof JoinKeySchema>;

/** The `data_dictionary` structured output: the model's draft for one dataset. */
export const DictionaryDraftSchema = z.object({
  row_meaning: z.string().describe('What one row is, e.g. "one penguin observed on one day"'),
  grain: z.string().describe('The columns that identify a row, or an empty string'),
  caveats: z.array(z.string()).describe('Known caveats a correct analysis must respect'),
  columns: z.array(ColumnEntrySchema),
  joins: z.array(JoinKeySchema).describe('Join keys to other loaded datasets (empty when none)'),
});
export type DictionaryDraft = z.infer<typeof DictionaryDraftSchema>;

/** A dataset's dictionary as stored (key: the table name). */
export const DataDictionarySchema = DictionaryDraftSchema.extend({
  dataset: z.string().min(1),
  /** `draft`: written by the model (or imported) and not yet accepted; `accepted`: the user's. */
  status: z.enum(['draft', 'accepted']),
  /** Where it came from: the model's draft, an import (file name), or typed by the user. */
  source: z.string(),
  updated_at: z.string(),
  /**
   * The content it was written for (`shared/knowledge/identity.ts`: source file, size, column
   * names). It follows that content through renames; another file under the same name is only
   * offered it. Absent on dictionaries stored before issue 32 (bound by name, as then).
   */
  fingerprint: z.string().optional(),
});
export type DataDictionary = z.infer<typeof DataDictionarySchema>;

export const WorkspaceRuleSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1).max(2000),
  created_at: z.string(),
  /** Where it came from: typed, an answer's "Remember this", or a clarifying question's choice. */
  source: z.enum(['typed', 'answer', 'clarification']).optional(),
  /** (issue 32) Absent: the whole workspace; else the table it applies to (sent only while that table is loaded). */
  dataset: z.string().min(1).optional(),
  /**
   * (issue 32) The content fingerprint of `dataset` when the rule was scoped (shared/knowledge/
   * identity.ts): the rule follows that content under any name and is only offered to another file.
   */
  fingerprint: z.string().optional(),
  /** (issue 32) The user's order, lowest first: it is also the order rules get room in a tight prompt. Absent: by creation. */
  order: z.number().optional(),
  updated_at: z.string().optional(),
});
export type WorkspaceRule = z.infer<typeof WorkspaceRuleSchema>;

/**
 * (issue 32) A query the user marked as answering a question correctly: the agent is shown the
 * closest ones for a similar question, reuses them and says so.
 */
export const TrustedQuerySchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1).max(500),
  sql: z.string().min(1).max(20_000),
  /** The tables it reads (offered only while they are loaded). */
  datasets: z.array(z.string()),
  created_at: z.string(),
  /** True when `datasets` came from DuckDB's binder; absent on queries marked before, whose tables were guessed from names. */
  bound: z.boolean().optional(),
});
export type TrustedQuery = z.infer<typeof TrustedQuerySchema>;

/** (issue 32) A named definition (`revenue = sum(amount) filter (where not refund)`) the agent uses by name and cites. */
export const MetricSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(80),
  dataset: z.string().min(1),
  /** A SQL aggregate expression over the dataset's columns. */
  expression: z.string().min(1).max(2000),
  description: z.string().max(500),
  created_at: z.string(),
});
export type Metric = z.infer<typeof MetricSchema>;

/** An empty dictionary for a dataset's columns (what the editor starts from without a draft). */
export function emptyDictionary(dataset: string, columns: readonly string[], source = 'typed'): DataDictionary {
  return {
    dataset,
    status: 'draft',
    source,
    updated_at: new Date().toISOString(),
    row_meaning: '',
    grain: '',
    caveats: [],
    joins: [],
    columns: columns.map((name) => ({ name, description: '', unit: '', role: 'other', codes: [], missing: [] })),
  };
}

/** What an export carries: accepted dictionaries and the rules' texts. */
export interface WorkspaceKnowledge {
  dictionaries: DataDictionary[];
  rules: string[];
  /** (issue 32) Metrics and trusted queries; an export keeps those of the datasets it uses. */
  metrics?: Metric[];
  trusted?: TrustedQuery[];
}
