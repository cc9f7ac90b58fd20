/** Types for the scripted OpenAI-compatible test server (server.mjs). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The body exactly as received (UTF-8 text). */
  raw_body: string;
  at: number;
}

export type ScriptedReply = (
  | { type: 'text'; content: string; chunk_size?: number }
  | { type: 'tool_calls'; calls: { id?: string; name: string; arguments: unknown }[]; content?: string }
  | { type: 'malformed_tool_call'; name: string; arguments_text: string; id?: string }
  | { type: 'structured'; value: unknown }
  | { type: 'error'; status: number; message?: string; code?: string; retry_after?: number }
  | { type: 'cut'; content: string; after_chunks?: number }
  /** OpenAI's Structured Outputs refusal: `message.refusal` (streamed as `delta.refusal`), content null. */
  | { type: 'refusal'; refusal: string }
) & {
  delay_ms?: number;
  chunk_delay_ms?: number;
  when?: string;
  reasoning?: string;
  /** Persona `reads-context` (personas/knowledge.mjs): answer with `then` when the messages contain every `contains`. */
  if_context?: {
    contains: string | string[];
    then: { type: 'text'; content: string } | { type: 'tool_calls'; calls: { id?: string; name: string; arguments: unknown }[]; content?: string };
  };
};

/** Replies for the requests whose user messages contain `match` (see server.mjs). */
export interface ScriptedRoute {
  match: string;
  replies: ScriptedReply[];
}

export interface MockLlmState {
  replies: ScriptedReply[];
  routes: ScriptedRoute[];
  requests: RecordedRequest[];
  models: string[];
  embeddings: boolean;
  requireKey: string | undefined;
  seq: number;
  /** The persona in force (personas/index.mjs), if any. */
  persona: string | undefined;
  /** The persona's scratch space, reset when the persona changes. */
  memo: Record<string, unknown>;
  /** The persona's settings (`persona_options` of /__script), e.g. the chaos persona's seed. */
  personaOptions: Record<string, unknown>;
}

export interface MockLlm {
  url: string;
  port: number;
  state: MockLlmState;
  close(): Promise<void>;
}

export function startMockLlm(options?: { port?: number; host?: string }): Promise<MockLlm>;
export function structuredNameOf(body: unknown): string | undefined;
export function embedText(text: string): number[];
