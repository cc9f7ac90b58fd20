/**
 * The agent worker's wire (main thread ⇄ agent worker), following AGENT-CONTRACT.md: the
 * requests the page sends and the events of a run. Schemas are zod so the page validates what
 * crosses the boundary; the TypeScript types are inferred from them so the two cannot drift.
 * The tool contract bound to the model is ./tools.ts; structured outputs ./structured.ts; the
 * stored conversation view ./threadView.ts; the final output ./final.ts.
 */
import { z } from 'zod';
import { AGENT_MODES, FinalOutputSchema, type AgentMode } from './final';
import type { AgentThreadSummary, RateAnswerRequest, ThreadView } from './threadView';
import { TOOL_RESULT_SCHEMAS } from './tools';
import type { DataDictionary } from './knowledge';
import { RunUsageSchema } from './usage';

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
  /** The user's time zone (IANA name) when they chose one in Settings (additive, optional): the model's "local time". */
  timeZone: z.string().max(64).optional(),
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
  /**
   * The run's id, chosen by the page (additive, optional; letters, digits, `-`, `_`): its events
   * can be routed to the run from the first one, before the reply naming the run arrives.
   */
  run_id?: string;
}

export interface ModelContextView {
  text: string;
  tokens: number;
  budget: number;
  /** Tokens the datasets block may take before it is made compact. */
  share: number;
  /** Each dataset's detail level in the block (`full` … `table`, `omitted`: only named). */
  levels?: Record<string, string>;
  /** What the block shows in less detail than the workspace has, in words (issue 32). */
  left_out?: { what: string; detail: string }[];
  /**
   * (issue 32) What the last prompt sent in this session actually carried, after fitting it to the
   * context window: may be less than the preview above when the conversation was long.
   */
  last_prompt?: LastPromptFit;
}

/** What one prompt carried of the workspace's knowledge (issue 32). */
export interface LastPromptFit {
  /** ISO time it was sent. */
  at: string;
  left_out: { what: string; detail: string }[];
  levels: Record<string, string>;
  /** Per dataset with an accepted dictionary: described columns carried in full, of all. */
  described: Record<string, { shown: number; total: number }>;
  /** What the question itself needed and did not get. */
  essential_left_out: { what: string; detail: string }[];
}

/** The privacy log's thread for a dataset's dictionary drafts (they belong to no conversation). */
export function dictionaryDraftThread(dataset: string): string {
  return `data-dictionary:${dataset}`;
}

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
  /**
   * (additive) The check could not learn anything about the model: the key was refused, the model
   * is not served, the endpoint could not be reached. `summary` then says that, not "Tools: no".
   */
  failure?: { kind: ErrorKind; message: string };
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
  resume: { req: { settings: EndpointSettings; thread_id: string; /** As in `StartRunRequest`. */ run_id?: string }; res: { run_id: string } };
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
  /**
   * Drafts a dataset's data dictionary with one `data_dictionary` call (additive, issue 24): from
   * its profile and a few sample values (none under "No raw rows"). Logged in the privacy log
   * under the thread `dictionaryDraftThread(dataset)`; the page stores the draft.
   */
  draftDictionary: { req: { settings: EndpointSettings; dataset: string }; res: DataDictionary };
  /**
   * Stops the dataset's draft in flight (additive, issue 37): its model call is aborted and its
   * `draftDictionary` fails with "Draft cancelled."; nothing is stored. False: none was running.
   */
  cancelDraft: { req: { dataset: string }; res: { cancelled: boolean } };
  /**
   * What the model sees of the workspace (additive, issue 24): the datasets block with the
   * accepted dictionaries and the rules exactly as the next run's prompt would carry it, its
   * estimated tokens, and the run's token budget it must fit (`budget`; the block may take `share`).
   */
  modelContext: { req: { settings: EndpointSettings }; res: ModelContextView };
};

// ---------------------------------------------------------------------------------------------
// The event stream

export const ERROR_KINDS = ['auth', 'rate_limit', 'server', 'timeout', 'network', 'aborted', 'not_found', 'no_tools', 'no_images', 'bad_request', 'unknown'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];


export const STATUS_KINDS = ['validating', 'retrying', 'loop_detected', 'budget_exhausted', 'summarizing', 'provider_adjusted', 'context_fitted'] as const;
export type StatusKind = (typeof STATUS_KINDS)[number];

/**
 * Every event of a run carries its `run_id`, so a client can tell a late event of a stopped run
 * from the next run's.
 */
const RUN = { run_id: z.string() };

/** `tool_end`, one shape per tool: `output` is that tool's result, narrowed by `tool`. */
const ToolEndSchema = z.discriminatedUnion('tool', [
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('profile_data'), output: TOOL_RESULT_SCHEMAS.profile_data }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('run_sql'), output: TOOL_RESULT_SCHEMAS.run_sql }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('run_python'), output: TOOL_RESULT_SCHEMAS.run_python }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('create_chart'), output: TOOL_RESULT_SCHEMAS.create_chart }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('validate_results'), output: TOOL_RESULT_SCHEMAS.validate_results }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('search_examples'), output: TOOL_RESULT_SCHEMAS.search_examples }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('describe_columns'), output: TOOL_RESULT_SCHEMAS.describe_columns }),
  z.object({ ...RUN, type: z.literal('tool_end'), call_id: z.string(), elapsed_ms: z.number(), tool: z.literal('ask_clarification'), output: TOOL_RESULT_SCHEMAS.ask_clarification }),
]);

export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run_start'), thread_id: z.string(), run_id: z.string(), mode: z.enum(AGENT_MODES) }),
  /**
   * A graph node started. `answer` (additive) says its model output is the answer being
   * written: the page sets earlier text aside as a step, with no list of node names of its own.
   */
  z.object({ ...RUN, type: z.literal('node'), name: z.string(), answer: z.boolean() }),
  z.object({ ...RUN, type: z.literal('token'), text: z.string() }),
  /** The model's thinking, whichever shape the provider sends it in; never part of the answer. */
  z.object({ ...RUN, type: z.literal('reasoning'), text: z.string() }),
  z.object({ ...RUN, type: z.literal('tool_start'), call_id: z.string(), tool: z.string(), args: z.unknown() }),
  ToolEndSchema,
  z.object({ ...RUN, type: z.literal('tool_error'), call_id: z.string(), tool: z.string(), error: z.string() }),
  /**
   * `discard_partial` (additive): the reply being streamed broke off and is requested again; what
   * was shown of it is dropped.
   */
  z.object({ ...RUN, type: z.literal('status'), kind: z.enum(STATUS_KINDS), detail: z.string(), discard_partial: z.boolean().optional() }),
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
  /** `usage` (additive, issue 26): the tokens every request of this run sent and received. */
  z.object({ type: z.literal('run_end'), thread_id: z.string(), run_id: z.string(), usage: RunUsageSchema.optional() }),
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Bounds = Extract<AgentEvent, { type: 'run_start' | 'run_end' }>;
/**
 * An event as the graph emits it: the worker's run loop (workers/agent/service/run.ts) stamps `run_id`
 * (run_start and run_end name their run themselves).
 */
export type RunEvent = DistributiveOmit<Exclude<AgentEvent, Bounds>, 'run_id'> | Bounds;
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
