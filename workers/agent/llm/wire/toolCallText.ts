/**
 * Recognises a tool call that a model wrote as text instead of as a structured call. Small local
 * models (and Groq's `failed_generation`) produce shapes like
 *   {"name": "run_sql", "arguments": {"sql": "…"}}           (optionally in a ```json fence)
 *   {"tool": "run_sql", "parameters": {…}}  ·  {"function": {"name", "arguments"}}
 *   {"tool_calls": [{"function": {"name", "arguments"}}]}
 *   run_sql{"sql": "…"}</function>  ·  <function=run_sql>{…}</function>  ·  <tool_call>{…}</tool_call>
 * Only names of tools the request offered are accepted, so an answer that merely contains JSON
 * is never mistaken for a call.
 */

export interface TextToolCall {
  name: string;
  /** The arguments as a JSON text. */
  arguments: string;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function argsText(v: unknown): string | undefined {
  if (v === undefined || v === null) return '{}';
  if (typeof v === 'string') {
    try {
      return isObject(JSON.parse(v)) ? v : undefined;
    } catch {
      return undefined;
    }
  }
  return isObject(v) ? JSON.stringify(v) : undefined;
}

function fromObject(o: Json, tools: ReadonlySet<string>): TextToolCall[] {
  if (Array.isArray(o.tool_calls)) return o.tool_calls.flatMap((c) => (isObject(c) ? fromObject(c, tools) : []));
  const fn = isObject(o.function) ? o.function : undefined;
  const name = [o.name, o.tool, o.tool_name, fn?.name].find((n): n is string => typeof n === 'string');
  if (!name || !tools.has(name)) return [];
  const args = argsText(o.arguments ?? o.parameters ?? o.args ?? o.input ?? fn?.arguments ?? fn?.parameters);
  return args === undefined ? [] : [{ name, arguments: args }];
}

/** Parses JSON leniently: exact first, then without trailing commas. */
export function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return undefined;
    }
  }
}

/** The first balanced `{…}` or `[…]` starting at `from`, respecting strings. */
export function balancedJsonAt(text: string, from: number): string | undefined {
  const open = text[from];
  if (open !== '{' && open !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(from, i + 1);
    }
  }
  return undefined;
}

/** Strips a surrounding code fence and wrapper tags the models use. */
function unwrap(text: string): string {
  let t = text.trim();
  const fence = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?```$/.exec(t);
  if (fence?.[1] !== undefined) t = fence[1].trim();
  t = t.replace(/^<(tool_call|tool-use|tool_use|function_call)>\s*/, '').replace(/\s*<\/(tool_call|tool-use|tool_use|function_call)>$/, '');
  return t.trim();
}

/**
 * The tool calls `text` consists of, or an empty list when it is not (only) tool calls. The text
 * must be the call(s) and nothing else but fences/tags, so prose that quotes a call stays prose.
 */
export function recogniseToolCalls(text: string, toolNames: Iterable<string>): TextToolCall[] {
  const tools = new Set(toolNames);
  if (tools.size === 0) return [];
  const t = unwrap(text);
  if (!t) return [];
  // name{…} / <function=name>{…}</function> (Llama-style, seen in Groq's failed_generation).
  const named = /^(?:<function=)?([A-Za-z_][\w.-]*)>?\s*(\{[\s\S]*\})\s*(?:<\/function>)?$/.exec(t);
  if (named?.[1] && named[2] && tools.has(named[1])) {
    const args = argsText(parseLooseJson(named[2]));
    return args === undefined ? [] : [{ name: named[1], arguments: args }];
  }
  const json = balancedJsonAt(t, 0);
  if (!json || json.length !== t.length) return [];
  const parsed = parseLooseJson(json);
  if (Array.isArray(parsed)) {
    const calls = parsed.flatMap((c) => (isObject(c) ? fromObject(c, tools) : []));
    return calls.length === parsed.length ? calls : [];
  }
  return isObject(parsed) ? fromObject(parsed, tools) : [];
}

const CALL_STARTS = ['```', '{', '[', '<tool_call>', '<function=', '<tool-use>'];

/**
 * Whether streamed content so far might still turn out to be a written tool call, so the
 * stream holds it back instead of showing it as answer text.
 */
export function mightBeToolCallText(soFar: string, toolNames: Iterable<string>): boolean {
  const t = soFar.trimStart();
  if (!t) return true;
  const starts = [...CALL_STARTS, ...toolNames];
  return starts.some((s) => t.startsWith(s) || s.startsWith(t));
}
