/**
 * How big one dictionary draft request may get (issue 37), shared by the agent worker that builds
 * the prompt (workers/agent/knowledge/draft.ts) and the page that asks before drafting many
 * datasets (its token estimate). A 2,000-column table or a workspace of 50 datasets must not make
 * a prompt the model's window cannot hold: columns past the budget are named as left out.
 */

/** Columns the draft prompt describes at most. */
export const DRAFT_COLUMNS = 200;
/** Characters of column lines at most (≈ 6,000 tokens); the columns after are left out. */
export const DRAFT_LINES_CHARS = 24_000;
/** Characters naming the other datasets' columns (join keys) at most. */
export const DRAFT_OTHERS_CHARS = 3_000;
/** The instructions and the dataset's heading. */
const FIXED_CHARS = 1_100;
/** A column line with counts, a range and a few top values, as measured on survey-like tables. */
const LINE_CHARS = 90;
/** The model's answer per described column (description, unit, role, codes) and for the dataset. */
const OUTPUT_TOKENS_PER_COLUMN = 45;
const OUTPUT_TOKENS_FIXED = 150;
const CHARS_PER_TOKEN = 4;

/** Columns a draft describes for a table of `columns` columns. */
export function draftedColumns(columns: number): number {
  return Math.min(columns, DRAFT_COLUMNS, Math.floor(DRAFT_LINES_CHARS / LINE_CHARS));
}

/** Tokens one draft is expected to cost, before it is asked for. */
export function estimateDraftTokens(columns: number, otherDatasets: number): { input: number; output: number } {
  const described = draftedColumns(columns);
  const others = Math.min(DRAFT_OTHERS_CHARS, otherDatasets * 200);
  return {
    input: Math.ceil((FIXED_CHARS + described * LINE_CHARS + others) / CHARS_PER_TOKEN),
    output: OUTPUT_TOKENS_FIXED + described * OUTPUT_TOKENS_PER_COLUMN,
  };
}
