/**
 * A tool protocol in plain text, for servers that cannot take `tools` with automatic tool choice:
 * vLLM started without `--enable-auto-tool-choice`, Ollama models whose template has no tools,
 * llama-server without `--jinja`. The tools are described in the system prompt, earlier calls and
 * results are written back as text, and the calls the model writes (JSON or tags) are read from
 * its reply and handed on as ordinary tool calls, so the graph never knows the difference.
 */
import { balancedJsonAt, parseLooseJson, recogniseToolCalls, type TextToolCall } from './wire/toolCallText';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether an error body says the server cannot take tools with automatic choice. Only the
 * servers' own words count (each is a refusal whose retry cannot succeed with `tools`):
 * - vLLM: HTTP 400 `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",…}`
 *   (https://github.com/langchain4j/langchain4j/issues/3475)
 * - Ollama: HTTP 400 `{"error":{"message":"registry.ollama.ai/library/llama3:8b does not support tools",…}}`
 *   or `{"error":"… does not support tools"}` (https://github.com/ollama/ollama/issues/5793, /14795)
 * - llama-server without `--jinja`: HTTP 500 `tools param requires --jinja flag`, type `server_error`
 *   (https://github.com/containers/ramalama/issues/988, https://github.com/defilantech/LLMKube/issues/126)
 */
export function refusesAutoTools(status: number, bodyText: string): boolean {
  if (status !== 400 && status !== 422 && status !== 500) return false;
  const text = bodyText.slice(0, 4000);
  if (status === 500) return /tools param requires --jinja/i.test(text);
  return /"?auto"?\\?"? tool choice requires --enable-auto-tool-choice|does not support tools|tools param requires --jinja/i.test(text);
}

/** Whether the messages hold tool calls or tool results (which a server without tools may not read). */
export function hasToolHistory(body: Json): boolean {
  return (Array.isArray(body.messages) ? body.messages : []).some((m: unknown) => isObject(m) && (m.role === 'tool' || (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)));
}

/** Whether a request is the agent's own tool turn (tools offered, the model free to choose). */
export function isAutoToolRequest(body: Json): boolean {
  if (!Array.isArray(body.tools) || body.tools.length === 0) return false;
  return body.tool_choice === undefined || body.tool_choice === 'auto';
}

interface ToolSpec {
  name: string;
  description: string;
  parameters: unknown;
}

function toolSpecs(body: Json): ToolSpec[] {
  return (Array.isArray(body.tools) ? body.tools : []).flatMap((t: unknown) => {
    const fn = isObject(t) && isObject(t.function) ? t.function : undefined;
    if (!fn || typeof fn.name !== 'string') return [];
    return [{ name: fn.name, description: typeof fn.description === 'string' ? fn.description : '', parameters: fn.parameters ?? {} }];
  });
}

/** Drops what a schema says only for validators, so the tool list costs fewer tokens. */
function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema' || k === 'additionalProperties' || k === 'title') continue;
    out[k] = compactSchema(v);
  }
  return out;
}

export const TEXT_PROTOCOL_HEADING = '## Calling tools';

/** The system-prompt section that replaces `tools`. */
export function toolProtocolPrompt(body: Json): string {
  const specs = toolSpecs(body);
  const list = specs.map((s) => `- ${s.name}: ${s.description}\n  arguments (JSON Schema): ${JSON.stringify(compactSchema(s.parameters))}`).join('\n');
  return `${TEXT_PROTOCOL_HEADING}
This endpoint has no native tool calls, so call a tool by writing exactly one block like this and nothing after it:
<tool_call>
{"name": "run_sql", "arguments": {"sql": "SELECT 1"}}
</tool_call>
Then stop and wait: the result comes back in the next message, starting with "Tool result". When you have the answer, reply in plain text with no tool_call block.
Tools:
${list}`;
}

function callText(name: string, args: unknown): string {
  let parsed: unknown = args;
  if (typeof args === 'string') parsed = parseLooseJson(args) ?? args;
  return `<tool_call>\n${JSON.stringify({ name, arguments: parsed })}\n</tool_call>`;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

/**
 * The request without `tools`: the tools described in the (first) system message, assistant
 * calls written as `<tool_call>` text and tool results as user messages, so no server sees a
 * role or field it may not know.
 */
export function toTextProtocol(body: Json): Json {
  const { tools: _t, tool_choice: _c, parallel_tool_calls: _p, ...rest } = body;
  const names = new Map<string, string>();
  const messages: Json[] = [];
  for (const raw of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(raw)) continue;
    if (raw.role === 'assistant' && Array.isArray(raw.tool_calls) && raw.tool_calls.length) {
      const calls = raw.tool_calls.filter(isObject).map((tc) => {
        const fn = isObject(tc.function) ? tc.function : {};
        const name = typeof fn.name === 'string' ? fn.name : 'unknown';
        if (typeof tc.id === 'string') names.set(tc.id, name);
        return callText(name, fn.arguments);
      });
      const { tool_calls: _tc, ...m } = raw;
      messages.push({ ...m, content: [contentText(raw.content), ...calls].filter(Boolean).join('\n') });
    } else if (raw.role === 'tool') {
      const name = (typeof raw.tool_call_id === 'string' && names.get(raw.tool_call_id)) || (typeof raw.name === 'string' ? raw.name : 'the tool');
      messages.push({ role: 'user', content: `Tool result (${name}):\n${contentText(raw.content)}` });
    } else {
      messages.push(raw);
    }
  }
  // A request without tools (a last answer, a summary) only needs its history rewritten.
  if (toolSpecs(body).length === 0) return { ...rest, messages };
  const section = toolProtocolPrompt(body);
  const sys = messages.findIndex((m) => m.role === 'system' || m.role === 'developer');
  if (sys >= 0) {
    const m = messages[sys] as Json;
    messages[sys] = { ...m, content: `${contentText(m.content)}\n\n${section}` };
  } else {
    messages.unshift({ role: 'system', content: section });
  }
  return { ...rest, messages };
}

const TAGGED = /<(tool_call|function_call|tool_use)>\s*([\s\S]*?)\s*<\/\1>/g;
const FENCED = /```(?:json|JSON|tool_call)?\s*\n?([\s\S]*?)```/g;

function callsIn(text: string, tools: readonly string[]): TextToolCall[] {
  const whole = recogniseToolCalls(text, tools);
  if (whole.length) return whole;
  const t = text.trim();
  for (let i = 0; i < t.length; i = t.indexOf('{', i + 1)) {
    if (i < 0) break;
    const block = balancedJsonAt(t, i);
    if (block) {
      const calls = recogniseToolCalls(block, tools);
      if (calls.length) return calls;
    }
  }
  return [];
}

export interface ReadReply {
  /** The text outside the calls (prose the model wrote before them). */
  content: string;
  calls: TextToolCall[];
}

/**
 * The tool calls a model wrote in its reply: `<tool_call>{…}</tool_call>` blocks (Hermes/Qwen
 * style), fenced JSON, or a reply that is only a call in any form `toolCallText` knows. Only
 * names of offered tools count, so an answer that quotes JSON stays an answer.
 */
export function readTextToolCalls(text: string, toolNames: readonly string[]): ReadReply {
  const whole = recogniseToolCalls(text, toolNames);
  if (whole.length) return { content: '', calls: whole };
  for (const pattern of [TAGGED, FENCED]) {
    const calls: TextToolCall[] = [];
    let first = -1;
    for (const m of text.matchAll(pattern)) {
      const inner = m[m.length - 1] ?? '';
      const found = callsIn(inner, toolNames);
      if (found.length) {
        if (first < 0) first = m.index ?? 0;
        calls.push(...found);
      }
    }
    if (calls.length) return { content: text.slice(0, first).trim(), calls };
  }
  return { content: text, calls: [] };
}

/** The capability check's words when tools work only through the text protocol. */
export function textToolsSummary(summary: string): string {
  return summary.replace(/^Tools: (?:yes|no)/, 'Tools: as text (the endpoint refuses automatic tool calls)');
}
