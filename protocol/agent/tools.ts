/**
 * The tool contract the agent worker binds to the model (AGENT-CONTRACT.md): each tool's
 * arguments (zod schemas whose descriptions are the prompt text the model reads) and its result,
 * which also crosses to the page as the typed `output` of a `tool_end` event.
 */
import { z } from 'zod';
import { PlotlyFigureSchema } from '../figure';
import { ValidationReportSchema } from './structured';


export const TOOL_NAMES = [
  'profile_data',
  'run_sql',
  'run_python',
  'create_chart',
  'validate_results',
  'search_examples',
  /** Additive (issue 24): the full meaning and profile of columns the prompt lists compactly. */
  'describe_columns',
  /** Additive (issue 24): one clarifying question with choices; the run ends and waits for the user. */
  'ask_clarification',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const ProfileDataArgsSchema = z.object({
  dataset: z.string().describe('Table name of the dataset to profile'),
  columns: z.array(z.string()).optional().describe('Columns to profile (default: all)'),
  check_requirements: z
    .array(z.string())
    .optional()
    .describe('Columns or conditions the analysis needs, checked before proceeding'),
});
export type ProfileDataArgs = z.infer<typeof ProfileDataArgsSchema>;

export const RunSqlArgsSchema = z.object({
  sql: z.string().describe('One DuckDB SQL statement; every dataset is a table'),
  max_rows: z.number().int().positive().optional().describe('Rows to return (default 200)'),
});
export type RunSqlArgs = z.infer<typeof RunSqlArgsSchema>;

export const RunPythonArgsSchema = z.object({
  code: z
    .string()
    .describe('Python code. `datasets`, `df` (one dataset) and `sql(query)` are predefined; set `result` and/or `fig`'),
});
export type RunPythonArgs = z.infer<typeof RunPythonArgsSchema>;

export const CHART_TYPES = ['bar', 'line', 'scatter', 'histogram', 'box', 'pie', 'heatmap'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export const CreateChartArgsSchema = z.object({
  sql: z.string().describe('DuckDB SQL whose result the chart plots'),
  chart: z.object({
    type: z.enum(CHART_TYPES),
    x: z.string().describe('Result column for the x axis (or labels for pie)'),
    y: z.string().optional().describe('Result column for the y axis (or values for pie)'),
    color: z.string().optional().describe('Result column that splits the data into series'),
    title: z.string().optional(),
  }),
});
export type CreateChartArgs = z.infer<typeof CreateChartArgsSchema>;

export const ValidateResultsArgsSchema = z.object({
  question: z.string().describe("The user's question"),
  approach: z.string().describe('The method used and why'),
  results: z.string().describe('The results obtained'),
  code: z.string().describe('The code that produced them'),
});
export type ValidateResultsArgs = z.infer<typeof ValidateResultsArgsSchema>;

export const SearchExamplesArgsSchema = z.object({
  query: z.string().describe('What kind of analysis to find examples for'),
  top_k: z.number().int().positive().max(20).optional(),
});
export type SearchExamplesArgs = z.infer<typeof SearchExamplesArgsSchema>;

export const DescribeColumnsArgsSchema = z.object({
  dataset: z.string().describe('Table name of the dataset'),
  columns: z.array(z.string()).optional().describe('Columns to describe in full (default: list every column with its type and one-line description)'),
  search: z.string().optional().describe('Words to look for in column names and descriptions, to find columns in a wide table'),
});
export type DescribeColumnsArgs = z.infer<typeof DescribeColumnsArgsSchema>;

export const AskClarificationArgsSchema = z.object({
  question: z.string().min(1).describe('One short question for the user'),
  choices: z.array(z.string().min(1)).min(2).max(5).describe('2 to 5 answers the user can pick from'),
});
export type AskClarificationArgs = z.infer<typeof AskClarificationArgsSchema>;

export const TOOL_ARG_SCHEMAS = {
  profile_data: ProfileDataArgsSchema,
  run_sql: RunSqlArgsSchema,
  run_python: RunPythonArgsSchema,
  create_chart: CreateChartArgsSchema,
  validate_results: ValidateResultsArgsSchema,
  search_examples: SearchExamplesArgsSchema,
  describe_columns: DescribeColumnsArgsSchema,
  ask_clarification: AskClarificationArgsSchema,
} as const satisfies Record<ToolName, z.ZodType>;

export interface ToolArgs {
  profile_data: ProfileDataArgs;
  run_sql: RunSqlArgs;
  run_python: RunPythonArgs;
  create_chart: CreateChartArgs;
  validate_results: ValidateResultsArgs;
  search_examples: SearchExamplesArgs;
  describe_columns: DescribeColumnsArgs;
  ask_clarification: AskClarificationArgs;
}

// Results: what each tool returns. Loose objects: a field added later still reaches the page.

export const ColumnQualitySchema = z.object({
  dtype: z.string(),
  missing: z.number(),
  unique: z.number(),
  sample: z.array(z.unknown()),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  mean: z.number().optional(),
});
export type ColumnQuality = z.infer<typeof ColumnQualitySchema>;

export const ProfileDataResultSchema = z.looseObject({
  dataset: z.string(),
  row_count: z.number(),
  columns_found: z.array(z.string()),
  columns_missing: z.array(z.string()),
  quality: z.record(z.string(), ColumnQualitySchema),
  can_proceed: z.boolean(),
  issues: z.array(z.string()),
});
export type ProfileDataResult = z.infer<typeof ProfileDataResultSchema>;

export const RunSqlResultSchema = z.looseObject({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  row_count: z.number(),
  truncated: z.boolean(),
  elapsed_ms: z.number(),
});
export type RunSqlResult = z.infer<typeof RunSqlResultSchema>;

export const PythonErrorSchema = z.object({ type: z.string(), message: z.string(), traceback: z.string() });
export type PythonError = z.infer<typeof PythonErrorSchema>;

export const RunPythonResultSchema = z.looseObject({
  stdout: z.string(),
  /** `result` converted to JSON-able data (tables as { columns, rows }). */
  result: z.unknown(),
  figure: PlotlyFigureSchema.optional(),
  error: PythonErrorSchema.optional(),
  elapsed_ms: z.number(),
});
export type RunPythonResult = z.infer<typeof RunPythonResultSchema>;

export const CreateChartResultSchema = z.looseObject({ figure_id: z.string(), points: z.number(), summary: z.string() });
export type CreateChartResult = z.infer<typeof CreateChartResultSchema>;

export const ExampleRecordSchema = z.looseObject({
  id: z.string(),
  question: z.string(),
  tags: z.array(z.string()),
  approach: z.string(),
  code_pattern: z.string(),
});
export type ExampleRecord = z.infer<typeof ExampleRecordSchema>;

export const DescribedColumnSchema = z.looseObject({
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  unit: z.string().optional(),
  role: z.string().optional(),
  codes: z.array(z.object({ code: z.string(), meaning: z.string() })).optional(),
  missing: z.array(z.string()).optional(),
  nulls: z.number().optional(),
  distinct: z.number().optional(),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  mean: z.number().optional(),
  top: z.array(z.object({ value: z.string(), count: z.number() })).optional(),
});
export type DescribedColumn = z.infer<typeof DescribedColumnSchema>;

export const DescribeColumnsResultSchema = z.looseObject({
  dataset: z.string(),
  row_count: z.number(),
  total_columns: z.number(),
  columns: z.array(DescribedColumnSchema),
  columns_missing: z.array(z.string()),
  /** More columns matched than were returned (ask for fewer, or search). */
  truncated: z.boolean(),
  /** The dataset's own notes from its dictionary: what a row is, grain, caveats, joins. */
  notes: z.array(z.string()),
});
export type DescribeColumnsResult = z.infer<typeof DescribeColumnsResultSchema>;

export const TOOL_RESULT_SCHEMAS = {
  profile_data: ProfileDataResultSchema,
  run_sql: RunSqlResultSchema,
  run_python: RunPythonResultSchema,
  create_chart: CreateChartResultSchema,
  validate_results: ValidationReportSchema,
  search_examples: z.array(ExampleRecordSchema),
  describe_columns: DescribeColumnsResultSchema,
  ask_clarification: z.looseObject({ question: z.string(), choices: z.array(z.string()) }),
} as const satisfies Record<ToolName, z.ZodType>;

export type ToolResults = { [K in ToolName]: z.infer<(typeof TOOL_RESULT_SCHEMAS)[K]> };

/** A tool's result with its tool's name: what a `tool_end` event carries, narrowed by `tool`. */
export type ToolOutput = { [K in ToolName]: { tool: K; output: ToolResults[K] } }[ToolName];

export function isToolName(value: unknown): value is ToolName {
  return typeof value === 'string' && (TOOL_NAMES as readonly string[]).includes(value);
}

/** Parses a tool call's arguments against the contract: the args, or a message for the model. */
export function parseToolArgs<T extends ToolName>(
  tool: T,
  args: unknown,
): { ok: true; args: ToolArgs[T] } | { ok: false; message: string } {
  const parsed = TOOL_ARG_SCHEMAS[tool].safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data as ToolArgs[T] };
  return {
    ok: false,
    message: `invalid arguments for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
  };
}
