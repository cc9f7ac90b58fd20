/**
 * The agent worker's boundary (main thread ⇄ agent worker), following AGENT-CONTRACT.md:
 * the tools' arguments and results as the model sees them, the structured-output schemas, the
 * event stream of a run and the `FinalOutput`. Schemas are zod so the worker can bind the same
 * definitions to the model and the UI can validate what crosses the boundary; the TypeScript
 * types are inferred from them so the two cannot drift apart.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Endpoint settings and run requests

/** The user's OpenAI-compatible endpoint. The key travels per request and is never persisted. */
export const EndpointSettingsSchema = z.object({
  /** Must include the API version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: z.string().min(1),
  apiKey: z.string(),
  model: z.string().min(1),
  /**
   * Estimated tokens a run may send before older turns are summarised (additive, optional):
   * the model's default when absent.
   */
  contextTokens: z.number().int().positive().optional(),
  /**
   * "No raw rows" (additive, optional): only schemas, profiles and aggregates reach the model —
   * no sample values, and at most `rowsPerToolOutput` rows of any tool output.
   */
  noRawRows: z.boolean().optional(),
  /** Rows of a tool output the model may see under `noRawRows` (default `DEFAULT_ROWS_PER_TOOL_OUTPUT`). */
  rowsPerToolOutput: z.number().int().min(0).max(10_000).optional(),
});
export type EndpointSettings = z.infer<typeof EndpointSettingsSchema>;

export const DEFAULT_ROWS_PER_TOOL_OUTPUT = 20;

/** Tokens an endpoint reported for one request; `null` fields were not reported. */
export interface TokenUsage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** True when the endpoint reported nothing and these are estimates (about four characters a token). */
  estimated?: boolean;
}

/** One request a thread sent to the model endpoint, as the privacy log shows it (never headers). */
export interface PrivacyLogEntry {
  /** Increases in the order the requests were sent. */
  id: number;
  thread_id: string;
  /** ISO 8601 time the request was sent. */
  at: string;
  url: string;
  method: string;
  /** The request body exactly as sent (empty for a request without one). */
  body: string;
  /** HTTP status; null when no response arrived (network failure, stopped, or still in flight). */
  status: number | null;
  /** Tokens the endpoint reported; null when it did not report them (or the response was cut). */
  usage: TokenUsage | null;
  /** Why there is no status or no usage, when something went wrong. */
  error?: string;
  /** The model's reasoning received with the response (any of the three shapes), when there was some. */
  reasoning?: string;
}

export const AGENT_MODES = ['agent', 'pipeline'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** Image types the composer accepts (what OpenAI-compatible vision endpoints take). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** At most this many images per question. */
export const MAX_IMAGE_ATTACHMENTS = 4;
/** At most this many bytes per image (before base64). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** An image pasted or picked for the question (sent only to models that accept images). */
export const ImageAttachmentSchema = z.object({
  mimeType: z.enum(IMAGE_MIME_TYPES),
  /** base64 without the `data:` prefix. */
  data: z
    .string()
    .min(1)
    .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'not base64'),
  name: z.string().max(500).optional(),
});
export type ImageAttachment = z.infer<typeof ImageAttachmentSchema>;
export const ImageAttachmentsSchema = z.array(ImageAttachmentSchema).max(MAX_IMAGE_ATTACHMENTS);

/** The attachment as a `data:` URL (what the model request and the thumbnails use). */
export function imageDataUrl(image: Pick<ImageAttachment, 'mimeType' | 'data'>): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

export interface StartRunRequest {
  settings: EndpointSettings;
  thread_id: string;
  question: string;
  mode: AgentMode;
  /** Images sent with the question (additive, optional; validated by `ImageAttachmentsSchema`). */
  attachments?: ImageAttachment[];
  /**
   * The id the question is stored under (additive, optional; letters, digits, `-`, `_`): the
   * client's turn id, so ratings, Edit and Regenerate can name the question later.
   */
  question_id?: string;
  /**
   * Fork (additive, optional): the id of an earlier question of this thread that `question`
   * replaces (Edit question, or Regenerate with the same text). The thread is cut back to the
   * checkpoint before that question — it and every later turn are dropped from storage and from
   * what the model sees — and `question` runs from there. Without `attachments` the replaced
   * question's images are kept.
   */
  replaces?: string;
}

/** A conversation in the `Conversations` list. */
export interface AgentThreadSummary {
  thread_id: string;
  /** The first question, shortened. */
  title: string;
  mode: AgentMode;
  /** ISO 8601 time of the last checkpoint. */
  updated_at: string;
}

/** One message of a stored thread, as the conversation view shows it. */
export interface ThreadMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: { id: string; name: string; args: Record<string, unknown> }[];
  tool_call_id?: string;
  tool_name?: string;
  /** Images the user attached to this message, as `data:` URLs (additive). */
  images?: string[];
  /** The stored message's id (additive; set on questions): what `replaces` and ratings name. */
  id?: string;
  /** The model's reasoning for this assistant message, when it sent some (additive). */
  reasoning?: string;
}

/** One tool call's full outcome as the live run showed it (the model saw a clipped text of it). */
export interface StoredToolOutput {
  tool: string;
  ok: boolean;
  output?: unknown;
  error?: string;
  elapsed_ms?: number;
}

export interface ThreadView {
  thread_id: string;
  mode: AgentMode;
  messages: ThreadMessage[];
  /** Final outputs of the thread's completed runs, oldest first. */
  finals: FinalOutput[];
  /** The last run stopped before `finalize` (reload or crash mid-run): offer to continue. */
  interrupted: boolean;
  /** The older turns a `summarize` step compacted, when one ran. */
  summary?: string;
  /** Stored ratings of this thread's answers, by the id of the question answered (additive). */
  ratings?: Record<string, 'up' | 'down'>;
  /**
   * Each tool call's full outcome, by call id (additive): what the live run showed, so a reopened
   * conversation looks the same. Calls missing here fall back to the message text.
   */
  tool_outputs?: Record<string, StoredToolOutput>;
}

export type AnswerRating = 'up' | 'down' | 'none';

export interface RateAnswerRequest {
  thread_id: string;
  /** The question the answer was for. */
  question: string;
  final: FinalOutput;
  rating: AnswerRating;
  /** The id of the question answered (additive): the rating is stored and shown again on reopening. */
  question_id?: string;
}

/** The longest name `renameThread` accepts. */
export const MAX_THREAD_NAME = 200;

export type ModelListOutcome = { ok: true; models: string[] } | { ok: false; status?: number; message: string };

/** What `Test connection` found the chosen model can do (stored per endpoint + model). */
export interface CapabilityReport {
  tools: boolean;
  /** The structured-output method that worked, or `none`. */
  structured: 'json_schema' | 'function_calling' | 'json_object' | 'text' | 'none';
  images: boolean | 'untested';
  reasoning: 'reasoning_content' | 'reasoning' | 'inline_tags' | 'none';
  /** The findings in plain words, e.g. "Tools: yes · Structured output: via function calling (JSON schema refused) · …". */
  summary: string;
  /** Why a probe failed, in the endpoint's words, per capability. */
  problems: string[];
  checkedAt: number;
}

export type AgentRequests = {
  /**
   * Hands the agent worker its port to the data worker. Handed again after the data worker
   * restarted: calls still waiting on the old port fail with a clear error, the next ones work.
   */
  connectData: { req: { port: MessagePort }; res: Record<string, never> };
  /** Hands the agent worker its port for `AgentPythonRequests` (without it, no run_python). */
  connectPython: { req: { port: MessagePort }; res: Record<string, never> };
  /** Starts a run; its events follow as `AgentEvent`s, ending with `run_end`. */
  start: { req: StartRunRequest; res: { run_id: string } };
  /** Continues a thread whose last run was interrupted, from its last checkpoint. */
  resume: { req: { settings: EndpointSettings; thread_id: string }; res: { run_id: string } };
  /** Aborts the model request in flight and interrupts running code. */
  abort: { req: { run_id: string }; res: { aborted: boolean } };
  listThreads: { req: Record<string, never>; res: AgentThreadSummary[] };
  loadThread: { req: { thread_id: string }; res: ThreadView | null };
  deleteThread: { req: { thread_id: string }; res: AgentThreadSummary[] };
  /**
   * Feedback on a final answer (additive): `up` saves its question, approach and code to the
   * user's example library (IndexedDB), `down` or `none` removes it again.
   */
  rateAnswer: { req: RateAnswerRequest; res: { saved: boolean; examples: number } };
  /** Names a conversation (additive); the name replaces the first question as its title. */
  renameThread: { req: { thread_id: string; title: string }; res: AgentThreadSummary[] };
  /**
   * Conversations whose title, questions or answers contain every word of `query`
   * (case- and accent-insensitive), newest first (additive).
   */
  searchThreads: { req: { query: string }; res: AgentThreadSummary[] };
  /** The endpoint's `/models`, for the settings form and "Test connection". */
  listModels: { req: { settings: Omit<EndpointSettings, 'model'> }; res: ModelListOutcome };
  /** Every request the thread sent to the model endpoint, oldest first (additive). */
  privacyLog: { req: { thread_id: string }; res: PrivacyLogEntry[] };
  /**
   * Tiny requests to the chosen model (a tool call, a structured output, optionally an image)
   * and what they showed; stored so runs start from it (additive).
   */
  checkCapabilities: { req: { settings: EndpointSettings; images?: boolean }; res: CapabilityReport };
};

// ---------------------------------------------------------------------------------------------
// Tools: arguments (what the model sends) and results (what it gets back)

export const TOOL_NAMES = [
  'profile_data',
  'run_sql',
  'run_python',
  'create_chart',
  'validate_results',
  'search_examples',
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

export const TOOL_ARG_SCHEMAS = {
  profile_data: ProfileDataArgsSchema,
  run_sql: RunSqlArgsSchema,
  run_python: RunPythonArgsSchema,
  create_chart: CreateChartArgsSchema,
  validate_results: ValidateResultsArgsSchema,
  search_examples: SearchExamplesArgsSchema,
} as const satisfies Record<ToolName, z.ZodType>;

export interface ToolArgs {
  profile_data: ProfileDataArgs;
  run_sql: RunSqlArgs;
  run_python: RunPythonArgs;
  create_chart: CreateChartArgs;
  validate_results: ValidateResultsArgs;
  search_examples: SearchExamplesArgs;
}

export interface ColumnQuality {
  dtype: string;
  missing: number;
  unique: number;
  sample: unknown[];
  min?: number | string;
  max?: number | string;
  mean?: number;
}

export interface ProfileDataResult {
  dataset: string;
  row_count: number;
  columns_found: string[];
  columns_missing: string[];
  quality: Record<string, ColumnQuality>;
  can_proceed: boolean;
  issues: string[];
}

export interface RunSqlResult {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
}

/** A Plotly figure as JSON (`fig.to_json()` / what Plotly.newPlot takes). */
export const PlotlyFigureSchema = z.object({
  data: z.array(z.unknown()),
  layout: z.record(z.string(), z.unknown()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type PlotlyFigure = z.infer<typeof PlotlyFigureSchema>;

export interface PythonError {
  type: string;
  message: string;
  traceback: string;
}

export interface RunPythonResult {
  stdout: string;
  /** `result` converted to JSON-able data (tables as { columns, rows }). */
  result: unknown;
  figure?: PlotlyFigure;
  error?: PythonError;
  elapsed_ms: number;
}

export interface CreateChartResult {
  figure_id: string;
  points: number;
  summary: string;
}

export const ValidationReportSchema = z.object({
  is_valid: z.boolean().describe('Whether the results correctly answer the question'),
  issues: z.array(z.string()).describe('Problems found in the method, code or results'),
  suggestions: z.array(z.string()).describe('Concrete fixes'),
  confidence: z.number().min(0).max(1).describe('Confidence in the results, 0 to 1'),
});
export type ValidationReport = z.infer<typeof ValidationReportSchema>;

export interface ExampleRecord {
  id: string;
  question: string;
  tags: string[];
  approach: string;
  code_pattern: string;
}

export interface ToolResults {
  profile_data: ProfileDataResult;
  run_sql: RunSqlResult;
  run_python: RunPythonResult;
  create_chart: CreateChartResult;
  validate_results: ValidationReport;
  search_examples: ExampleRecord[];
}

// ---------------------------------------------------------------------------------------------
// Structured-output calls (the name tells a scripted endpoint which call it is)

export const ExecutionPlanSchema = z.object({
  needs_code: z.boolean(),
  needs_evaluation: z.boolean(),
  needs_explanation: z.boolean(),
  reasoning: z.string(),
});
export type ExecutionPlan = z.infer<typeof ExecutionPlanSchema>;

export const ConversationSummarySchema = z.object({
  summary: z.string().describe('The earlier conversation: questions, findings, figures and open points'),
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

export const STRUCTURED_OUTPUTS = {
  validation_report: ValidationReportSchema,
  execution_plan: ExecutionPlanSchema,
  conversation_summary: ConversationSummarySchema,
} as const;
export type StructuredOutputName = keyof typeof STRUCTURED_OUTPUTS;

// ---------------------------------------------------------------------------------------------
// Final output and the event stream

export const OUTPUT_TYPES = ['analysis', 'visualization', 'explanation', 'error'] as const;

export const FinalOutputSchema = z.object({
  answer: z.string(),
  confidence: z.number().min(0).max(1),
  output_type: z.enum(OUTPUT_TYPES),
  result: z.unknown().optional(),
  figures: z.array(PlotlyFigureSchema).optional(),
  code: z.array(z.string()).optional(),
  caveats: z.array(z.string()),
  reasoning_trace: z.array(z.string()),
  ungrounded_numbers: z.array(z.string()),
  failed_attempts: z.array(z.object({ code: z.string(), error: z.string() })),
});
export type FinalOutput = z.infer<typeof FinalOutputSchema>;

export const ERROR_KINDS = ['auth', 'rate_limit', 'server', 'timeout', 'network', 'aborted', 'not_found', 'no_tools', 'no_images', 'bad_request', 'unknown'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * Graph nodes whose model output is the answer being written (agent mode's `agent` and
 * `answer`, the pipeline's `explain` and `error`): the worker streams their tokens, and the UI
 * sets earlier text aside as a step when one of them starts.
 */
export const ANSWER_NODES: ReadonlySet<string> = new Set(['agent', 'answer', 'explain', 'error']);

export const STATUS_KINDS = ['validating', 'retrying', 'loop_detected', 'budget_exhausted', 'summarizing', 'provider_adjusted'] as const;
export type StatusKind = (typeof STATUS_KINDS)[number];

/**
 * Every event of a run carries its `run_id` (additive: run_start and run_end always did), so a
 * client can tell a late event of a stopped run from the next run's.
 */
const RUN = { run_id: z.string().optional() };

export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run_start'), thread_id: z.string(), run_id: z.string(), mode: z.enum(AGENT_MODES) }),
  z.object({ ...RUN, type: z.literal('node'), name: z.string() }),
  z.object({ ...RUN, type: z.literal('token'), text: z.string() }),
  /** The model's thinking, whichever shape the provider sends it in; never part of the answer. */
  z.object({ ...RUN, type: z.literal('reasoning'), text: z.string() }),
  z.object({ ...RUN, type: z.literal('tool_start'), call_id: z.string(), tool: z.string(), args: z.unknown() }),
  z.object({
    ...RUN,
    type: z.literal('tool_end'),
    call_id: z.string(),
    tool: z.string(),
    output: z.unknown(),
    elapsed_ms: z.number(),
  }),
  z.object({ ...RUN, type: z.literal('tool_error'), call_id: z.string(), tool: z.string(), error: z.string() }),
  z.object({ ...RUN, type: z.literal('status'), kind: z.enum(STATUS_KINDS), detail: z.string() }),
  z.object({ ...RUN, type: z.literal('final'), output: FinalOutputSchema }),
  z.object({
    ...RUN,
    type: z.literal('error'),
    message: z.string(),
    retryable: z.boolean(),
    /** What failed (additive): lets the UI offer Settings for `auth`, show the status of `rate_limit`… */
    kind: z.enum(ERROR_KINDS).optional(),
    status: z.number().optional(),
  }),
  z.object({ type: z.literal('run_end'), thread_id: z.string(), run_id: z.string() }),
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;
export type AgentEventType = AgentEvent['type'];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Validates a message at the boundary: the event, or the reason it is not one. */
export function parseAgentEvent(value: unknown): { ok: true; event: AgentEvent } | { ok: false; message: string } {
  const parsed = AgentEventSchema.safeParse(value);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
}

export function isAgentEvent(value: unknown): value is AgentEvent {
  return AgentEventSchema.safeParse(value).success;
}

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
