/**
 * Every prompt the agent sends, and the context builders that fill them (seed 003: prompts live
 * apart from node logic; global context is built once per run). Pure functions of their inputs,
 * so a test can check what the model will see.
 */
import type { ExampleRecord } from '../../../protocol/agent/tools';
import type { ValidationReport } from '../../../protocol/agent/structured';
import { formatExamples } from '../examples/retrieval';

/** A dataset as the model should know it: table, size, columns with types and sample values. */
export interface DatasetContext {
  name: string;
  rowCount: number;
  columns: { name: string; type: string; samples?: readonly unknown[] }[];
  /** How it was read (time zones stored as UTC, the load report's findings): said under its columns. */
  notes?: readonly string[];
  /** Its source file and size: with the column names, what binds its dictionary (shared/knowledge/identity.ts). */
  fileName?: string;
  sizeBytes?: number;
}

export interface ContextLimits {
  /** Sample values per column (default 3). */
  samplesPerColumn?: number;
  /** Longest sample text (default 24 characters). */
  sampleChars?: number;
  /** Columns listed per dataset before "… and N more" (default 120). */
  maxColumns?: number;
}

/** A rough token count (4 characters per token), enough for budgets. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** One sample value as the prompt shows it: short, and quoted only when it could be misread. */
export function formatSample(v: unknown, maxChars = 24): string {
  let s: string;
  if (v === null || v === undefined) s = 'NULL';
  else if (typeof v === 'number') s = Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  else if (typeof v === 'bigint' || typeof v === 'boolean') s = String(v);
  else if (v instanceof Date) s = v.toISOString().replace('T00:00:00.000Z', '');
  else s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s.length > maxChars) s = `${s.slice(0, maxChars - 1)}…`;
  // Quote only when a value could be misread in the comma-separated list.
  return /[,\n]|^\s|\s$/.test(s) || s === '' ? JSON.stringify(s) : s;
}

/** The datasets block: one line per column, `name TYPE: sample, sample, sample`. */
export function buildDatasetsContext(datasets: readonly DatasetContext[], limits: ContextLimits = {}): string {
  if (datasets.length === 0) return 'No datasets are loaded. Ask the user to add a data file before analysing.';
  const samples = limits.samplesPerColumn ?? 3;
  const chars = limits.sampleChars ?? 24;
  const maxColumns = limits.maxColumns ?? 120;
  const blocks = datasets.map((d) => {
    const lines = d.columns.slice(0, maxColumns).map((c) => {
      const vals = (c.samples ?? []).slice(0, samples).map((v) => formatSample(v, chars));
      return vals.length ? `${c.name} ${c.type}: ${vals.join(', ')}` : `${c.name} ${c.type}`;
    });
    if (d.columns.length > maxColumns) lines.push(`… and ${d.columns.length - maxColumns} more columns (use profile_data)`);
    for (const note of d.notes ?? []) lines.push(`Note: ${note}`);
    return `### ${d.name} (${d.rowCount} rows, ${d.columns.length} columns)\n${lines.join('\n')}`;
  });
  return `Datasets (each is a DuckDB table; quote names with double quotes if they need it):\n${blocks.join('\n\n')}`;
}

/** Date and identity, computed once per run. */
export function buildSystemContext(now: Date, timeZone?: string): string {
  const fmt = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'full',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  });
  const iso = now.toISOString().slice(0, 10);
  const zone = timeZone ? `; the user's time zone is ${timeZone}` : '';
  return `You are Dataseer, a careful data scientist working inside the user's browser on data they loaded.\nCurrent date and time: ${fmt.format(now)} (use ${iso} for date arithmetic${zone}).`;
}

/** What `run_python` can import; `null` when this session has no Python worker connected. */
export function buildPythonContext(packages: readonly string[] | null): string {
  if (packages === null) {
    return 'Python (run_python) is NOT available in this session: do not call run_python. Use run_sql for every computation (DuckDB has stddev, corr, quantiles, regr_* and more) and create_chart for charts.';
  }
  const hasPandas = packages.includes('pandas');
  const list = packages.length ? [...packages].sort().join(', ') : 'the standard library only';
  const table = hasPandas
    ? '`sql(query)` returns a pandas DataFrame.'
    : '`sql(query)` returns a table with `.columns` (names) and `.rows` (lists of values); pandas is NOT available, use the `statistics` and `math` modules.';
  return `Python (run_python): importable packages beyond the standard library: ${list}. ${table} \`datasets\` lists the tables; \`df\` is the only dataset when exactly one is loaded. Set \`result\` to the answer's data and \`fig\` to a Plotly figure (or its JSON dict) to show a chart.`;
}

export function buildFailedAttemptsContext(attempts: readonly { code: string; error: string }[]): string {
  if (attempts.length === 0) return '';
  const items = attempts
    .slice(-5)
    .map((a, i) => `${i + 1}. Code:\n\`\`\`\n${a.code.slice(0, 600)}\n\`\`\`\n   Error: ${a.error.slice(0, 300)}`)
    .join('\n');
  return `## Previous failed attempts\nThese were already tried in this run and FAILED. Do not repeat them; change the approach.\n${items}`;
}

/** The examples section's heading (a request fitted to a small window leaves the section out). */
export const EXAMPLES_HEADING = '## Similar solved examples';

export function buildExamplesContext(examples: readonly ExampleRecord[]): string {
  if (examples.length === 0) return '';
  return `${EXAMPLES_HEADING}\nAdapt their approach; replace the <placeholders> with real table and column names.\n\n${formatExamples(examples)}`;
}

export interface AgentPromptParts {
  systemContext: string;
  datasets: string;
  python: string;
  examples?: string;
  failedAttempts?: string;
  /** The compacted earlier conversation, when summarize ran. */
  summary?: string;
  iterationBudget: number;
}

const AGENT_RULES = `## How you work
1. Understand what the question asks and which tables and columns answer it.
2. Compute every figure with a tool: run_sql for queries and aggregates (preferred, fast), run_python for statistics that SQL cannot do, create_chart for a chart from a query. Never state a number you did not get from a tool output.
3. Use profile_data when unsure about columns, types or missing values.
4. After code has produced results, call validate_results with the question, your approach, the results and the code. If it reports issues, fix them.
5. Answer in plain language: the direct answer first with the key figures as the tools returned them (rounded sensibly), then how you got them, then caveats (sample size, missing data, assumptions). Correlation is not causation. You may end with a line "Next you could ask:" and up to three short follow-up questions as a bulleted list (the app shows them as buttons).
6. If a tool fails, read the error, fix the cause and try again; after 3 failed attempts at one approach, change the approach or explain why the data cannot answer the question.
Tool errors come back as text starting with "Error:". Only read-only SQL on the user's tables; never drop or alter them.`;

/** The agent node's system prompt. */
export function buildAgentSystemPrompt(p: AgentPromptParts): string {
  return [
    p.systemContext,
    AGENT_RULES,
    `You have at most ${p.iterationBudget} tool rounds for this question; be direct.`,
    p.datasets,
    p.python,
    p.summary ? `## Earlier in this conversation (summary)\n${p.summary}` : '',
    p.examples ?? '',
    p.failedAttempts ?? '',
  ]
    .filter((s) => s.trim() !== '')
    .join('\n\n');
}

/** The critic behind `validate_results` and the guard's forced validation (`validation_report`). */
export function buildValidationPrompt(input: { question: string; approach: string; results: string; code: string; datasets: string }): string {
  return `You review a data analysis before it is shown to the user. Judge strictly but fairly.
Check: does the method fit the question (right test, right grouping, right filter)? Does the code compute what the approach claims, on the right tables and columns? Are the results plausible (ranges, counts, signs)? Are missing values, small samples or assumptions ignored?
Set is_valid false only for problems that change the answer; list each issue and a concrete fix; confidence is 0 to 1.

Question: ${input.question}
Approach: ${input.approach}
Code:
\`\`\`
${input.code.slice(0, 4000)}
\`\`\`
Results:
${input.results.slice(0, 4000)}

${input.datasets}`;
}

/** Pipeline mode's plan (`execution_plan`). */
export function buildPlanPrompt(question: string, datasets: string): string {
  return `Decide how to answer the user's question about their data.
needs_code: true when the answer needs figures computed from the data (almost always when data is involved).
needs_evaluation: true when the result should be checked (statistics, joins, filters that could go wrong).
needs_explanation: true when the result needs to be explained in words (almost always).
reasoning: one or two sentences.

Question: ${question}

${datasets}`;
}

/** Pipeline mode's code step. `previous` carries the failed attempts to fix. */
export function buildCodePrompt(input: { question: string; datasets: string; python: string; previous: readonly { code: string; error: string }[] }): string {
  return `Write code that answers the question. Use run_sql for queries DuckDB can answer, run_python otherwise; call exactly one tool.

Question: ${input.question}

${input.datasets}

${input.python}

${buildFailedAttemptsContext(input.previous)}`.trim();
}

/** The summarize node (`conversation_summary`). */
export function buildSummaryPrompt(transcript: string, previousSummary?: string): string {
  return `Summarise the earlier part of a data analysis conversation so it can continue without it. Keep: each question, the tables and columns used, every figure found (exactly as stated), conclusions, open follow-ups. Drop pleasantries and tool chatter.${previousSummary ? `\n\nSummary so far:\n${previousSummary}` : ''}\n\nConversation:\n${transcript}`;
}

// ------------------------------------------------------------------- guard messages to the model

export function loopDetectedMessage(tool: string, error: string): string {
  return `LOOP DETECTED: ${tool} failed twice the same way (${error.slice(0, 200)}). Do NOT repeat that call. Either use a clearly different method (different query, simpler aggregation, another tool) or explain to the user why this analysis cannot be done with the available data.`;
}

export function validationFailedMessage(report: ValidationReport): string {
  const issues = report.issues.map((i) => `- ${i}`).join('\n') || '- (no details)';
  const fixes = report.suggestions.map((s) => `- ${s}`).join('\n');
  return `Validation found problems with the results:\n${issues}${fixes ? `\nSuggested fixes:\n${fixes}` : ''}\nAddress them with the tools, then answer.`;
}

export function forcedValidationNote(): string {
  return 'Code ran but the results were not validated; validating them before answering.';
}

export function budgetExhaustedMessage(budget: number, tried: readonly string[]): string {
  const list = tried.length ? tried.map((t) => `- ${t}`).join('\n') : '- (no tool calls)';
  return `The step budget (${budget}) for this question is used up. Do not call tools. Answer now with what the tool outputs already show, say clearly what is uncertain or unfinished, and list what was tried:\n${list}`;
}

export function codeRetriesExhaustedMessage(max: number): string {
  return `${max} attempts at this approach have failed. Do not try a small variation again: switch to a different method, or explain the limitation to the user.`;
}

/** What each contract tool is for, as the model reads it when the tools are bound. */
export const TOOL_DESCRIPTIONS = {
  profile_data:
    'Profile a dataset: row count, per-column type, missing values, distinct count, samples and min/max/mean; checks that required columns exist. Use before analysing unfamiliar columns.',
  run_sql:
    'Run one read-only DuckDB SQL statement over the loaded datasets (each is a table) and get the columns and rows. Preferred for filtering, aggregating, joining and most statistics.',
  run_python:
    'Run Python (Pyodide) for analysis SQL cannot do. `sql(query)` runs DuckDB and returns a table (or a pandas DataFrame when pandas is available); set `result` to the answer data and `fig` to a Plotly figure. Variables, imports and functions persist between run_python calls of this conversation; `result` and `fig` are cleared before each.',
  create_chart:
    'Draw a chart from a SQL query result: bar, line, scatter, histogram, box, pie or heatmap, naming the result columns for x, y and color.',
  validate_results:
    'Have a critic check your results against the question before answering: method, code and plausibility. Required after code has produced results.',
  search_examples: 'Find solved example analyses similar to a question, with their approach and a code pattern.',
  describe_columns:
    "Describe a dataset's columns from the user's data dictionary and profile: meaning, unit, codes, missing-value placeholders, nulls, distinct values, range and top values. Without `columns` it lists every column with its type and one-line description; `search` finds columns by words. Use it for tables the prompt lists compactly.",
  ask_clarification:
    "Ask the user one clarifying question with 2 to 5 choices, instead of guessing, when the question is ambiguous in a way neither the data nor the user's rules and dictionary settle (which of two date columns, which definition of a term). The run stops and the user's choice comes back as their next message. Not for things a query can find out.",
} as const;
