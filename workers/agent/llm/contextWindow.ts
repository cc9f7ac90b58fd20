/**
 * Small context windows: learning a server's window (from its refusals, from `/models`
 * metadata) and fitting every chat request into it before it is sent — shorter tool outputs,
 * the prompt's examples and sample values left out, older turns dropped, the completion capped —
 * so a 4k llama-server answers instead of refusing.
 */
import { EXAMPLES_HEADING } from '../core/prompts';
import { TEXT_PROTOCOL_HEADING } from './textTools';
import { plural } from '../../../shared/text';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface WindowRefusal {
  /** The window the server named, when it did. */
  window?: number;
  /** The prompt size it counted, when it said. */
  promptTokens?: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * Whether an error body says the prompt did not fit, and what it said about sizes:
 * - llama-server: `{"error":{"code":400,"message":"the request exceeds the available context size…",
 *   "type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}` (HTTP 400; 500 before
 *   https://github.com/ggml-org/llama.cpp/pull/16486) — https://github.com/ggml-org/llama.cpp/pull/15780,
 *   https://github.com/oobabooga/textgen/issues/7257
 * - OpenAI and vLLM: "This model's maximum context length is 4097 tokens. However, your messages
 *   resulted in 4294 tokens…" / "…you requested 4268 tokens (4012 in the messages, 256 in the
 *   completion)…", code `context_length_exceeded` — https://github.com/chathub-dev/chathub/issues/126,
 *   https://github.com/conghaonet/hao_chatgpt/issues/4
 */
export function windowRefusal(status: number, bodyText: string): WindowRefusal | undefined {
  if (status !== 400 && status !== 413 && status !== 422 && status !== 500) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const root = Array.isArray(parsed) ? parsed[0] : parsed;
  const e = isObject(root) && isObject(root.error) ? root.error : isObject(root) ? root : {};
  if (e.type === 'exceed_context_size_error' || num(e.n_ctx) !== undefined) {
    const window = num(e.n_ctx);
    const promptTokens = num(e.n_prompt_tokens);
    return { ...(window ? { window } : {}), ...(promptTokens ? { promptTokens } : {}) };
  }
  const text = bodyText.slice(0, 4000);
  const max = /maximum context length is (\d+)/i.exec(text);
  if (max?.[1]) {
    const used = /resulted in (\d+) tokens|requested (\d+) tokens|request has (\d+) input tokens/i.exec(text);
    const promptTokens = Number(used?.[1] ?? used?.[2] ?? used?.[3]) || undefined;
    return { window: Number(max[1]), ...(promptTokens ? { promptTokens } : {}) };
  }
  if (/context_length_exceeded|exceeds? the (?:available )?context (?:size|length|window)|context (?:length|window) (?:exceeded|is too small)/i.test(text)) return {};
  return undefined;
}

/**
 * The window a `/models` entry states: OpenRouter's `context_length` (and `top_provider.context_length`,
 * https://openrouter.ai/docs/client-sdks/typescript/models/topproviderinfo.md), vLLM's `max_model_len`
 * (https://github.com/modal-labs/modal-examples/issues/843), LM Studio's `loaded_context_length` /
 * `max_context_length`. llama.cpp's `meta.n_ctx_train` is the training length, not what the server
 * was started with, so it is not taken.
 */
export function windowFromModelEntry(entry: unknown): number | undefined {
  if (!isObject(entry)) return undefined;
  const top = isObject(entry.top_provider) ? entry.top_provider : {};
  return num(entry.loaded_context_length) ?? num(entry.max_model_len) ?? num(top.context_length) ?? num(entry.context_length) ?? num(entry.max_context_length);
}

/**
 * A cautious token count: three characters a token. Real tokenisers give about four for English
 * prose, fewer for JSON, numbers and code — which is most of what the agent sends.
 */
export function estimateRequestTokens(body: Json): number {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const chars = messages.reduce((n: number, m: unknown) => n + JSON.stringify(m).length + 12, 0) + (Array.isArray(body.tools) ? JSON.stringify(body.tools).length : 0);
  return Math.ceil(chars / 3);
}

/** What a reply needs at least: the completion reserve when the request sets none. */
export function completionReserve(window: number): number {
  return Math.max(256, Math.min(1024, Math.floor(window / 5)));
}

const text = (m: Json): string => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('') : '');

/** Where the summary of compacted turns starts in the system text (summarize.ts writes it). */
export const SUMMARY_HEADING = '## Earlier in this conversation (summary)';

/** The first section of the system text that fitting must keep whole, or -1. */
function firstProtected(system: string): number {
  const found = [TEXT_PROTOCOL_HEADING, SUMMARY_HEADING].map((h) => system.indexOf(h)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}

function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = Math.floor(max * 0.75);
  const tail = Math.max(0, max - head - 40);
  return `${s.slice(0, head)}\n… [${s.length - head - tail} characters left out to fit the context window] …\n${tail ? s.slice(-tail) : ''}`;
}

/** A tool output, in either protocol: a `tool` message or a text-protocol "Tool result" user message. */
const isToolOutput = (m: Json): boolean => m.role === 'tool' || (m.role === 'user' && text(m).startsWith('Tool result ('));

const isQuestion = (m: Json): boolean => m.role === 'user' && !isToolOutput(m);

/** The system prompt without the examples section and with dataset sample values left out. */
function compactSystem(s: string): string {
  let out = s;
  const at = out.indexOf(EXAMPLES_HEADING);
  if (at >= 0) {
    const next = out.indexOf('\n## ', at + EXAMPLES_HEADING.length);
    out = out.slice(0, at) + (next >= 0 ? out.slice(next + 1) : '');
  }
  // Column lines of the datasets block are `name TYPE: sample, sample`; the samples go.
  return out.replace(/^([^\n:]{1,200} [A-Z][A-Z0-9_]*(?:\([^)\n]*\))?(?:\[\])?): [^\n]*$/gm, '$1');
}

export interface Fitted {
  body: Json;
  /** What was shortened or left out, in words (empty when the request fitted as it was). */
  changes: string[];
}

/**
 * (issue 32) The workspace's knowledge as the system prompt carries it (the datasets block with
 * the accepted dictionaries, the rules, metrics and trusted queries). Fitting never cuts it
 * mid-text: it asks the section for a shorter version of itself, which leaves out whole items by
 * its own priorities and names what it left out (knowledge/windowFit.ts).
 */
export interface KnowledgeSection {
  /** The section exactly as the system prompt carries it. */
  text: string;
  /**
   * The section rebuilt to at most `maxChars` characters (or as short as it can be), leaving out
   * whole items by its priorities and naming them.
   */
  shrink(maxChars: number): string;
  /** Told what the request finally carried, so the run's steps and the page can say what was left out. */
  sent?(text: string): void;
}

/** The system prompt in three parts, so the knowledge between them is only ever replaced whole. */
interface SystemParts {
  index: number;
  pre: string;
  block: string;
  post: string;
}

function splitSystem(messages: Json[], knowledge: KnowledgeSection | undefined): SystemParts | undefined {
  if (!knowledge || knowledge.text === '') return undefined;
  const index = messages.findIndex((m) => m.role === 'system' || m.role === 'developer');
  const m = messages[index];
  if (!m) return undefined;
  const whole = text(m);
  const at = whole.indexOf(knowledge.text);
  if (at < 0) return undefined;
  return { index, pre: whole.slice(0, at), block: knowledge.text, post: whole.slice(at + knowledge.text.length) };
}

/** The unprotected text clipped by about `over` characters, keeping at least `floor`. */
function clipUnprotected(s: string, over: number, floor: number): string {
  const at = firstProtected(s);
  const head = at >= 0 ? s.slice(0, at) : s;
  const keep = Math.max(floor, head.length - over);
  if (keep >= head.length) return s;
  return clip(head, keep) + (at >= 0 ? `\n\n${s.slice(at)}` : '');
}

/**
 * The request cut down to fit `window` tokens with room for the reply: each step only while
 * still over — tool outputs shortened (older first), the examples and sample values left out of
 * the system prompt, turns before the current question dropped, the current turn's older
 * outputs cut harder, the system prompt clipped, and `max_tokens` capped to what is left.
 *
 * With `knowledge` (issue 32) the workspace's knowledge in the system prompt is never clipped: it
 * is rebuilt shorter by its own priorities (other tables first, the question's own tables and the
 * rules last) — whole items left out and named, never text cut mid-way — and only the
 * instructions around it are clipped, as the last resort.
 */
export function fitToWindow(body: Json, window: number, knowledge?: KnowledgeSection): Fitted {
  const changes: string[] = [];
  const maxField = body.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens';
  const asked = num(body[maxField]);
  const reserve = Math.min(asked ?? completionReserve(window), completionReserve(window));
  const budget = Math.max(64, window - reserve);
  let messages: Json[] = (Array.isArray(body.messages) ? body.messages : []).filter(isObject).map((m) => ({ ...m }));
  const size = () => estimateRequestTokens({ ...body, messages });
  const parts = splitSystem(messages, knowledge);
  const setSystem = (p: SystemParts) => {
    const m = messages[p.index] as Json;
    messages[p.index] = { ...m, content: p.pre + p.block + p.post };
  };
  const done = (out: Fitted): Fitted => {
    if (parts) knowledge?.sent?.(parts.block);
    return out;
  };
  if (size() <= budget && (asked === undefined || size() + asked <= window)) return done({ body, changes });

  const lastQuestion = messages.reduce((at, m, i) => (isQuestion(m) ? i : at), -1);
  for (const max of [4000, 1500, 600]) {
    if (size() <= budget) break;
    let cut = false;
    messages = messages.map((m) => {
      if (!isToolOutput(m) || text(m).length <= max) return m;
      cut = true;
      return { ...m, content: clip(text(m), max) };
    });
    if (cut && !changes.includes('tool outputs shortened')) changes.push('tool outputs shortened');
  }
  if (size() > budget) {
    const sys = messages.findIndex((m) => m.role === 'system' || m.role === 'developer');
    const m = messages[sys];
    if (parts) {
      // The knowledge's own sample values go by its priorities (below), not by a pattern.
      const pre = compactSystem(parts.pre);
      const post = compactSystem(parts.post);
      if (pre.length + post.length < parts.pre.length + parts.post.length) {
        Object.assign(parts, { pre, post });
        setSystem(parts);
        changes.push('examples left out');
      }
    } else if (m) {
      const compact = compactSystem(text(m));
      if (compact.length < text(m).length) {
        messages[sys] = { ...m, content: compact };
        changes.push('examples and sample values left out');
      }
    }
  }
  if (size() > budget && lastQuestion > 0) {
    const firstKept = messages.findIndex((m, i) => i > 0 && m.role !== 'system' && m.role !== 'developer');
    if (firstKept >= 0 && firstKept < lastQuestion) {
      const dropped = lastQuestion - firstKept;
      messages = [...messages.slice(0, firstKept), ...messages.slice(lastQuestion)];
      changes.push(`${plural(dropped, 'earlier message')} left out`);
    }
  }
  for (const max of [300, 120]) {
    if (size() <= budget) break;
    // The newest output is what the model is about to read: it keeps the most.
    const last = messages.reduce((at, m, i) => (isToolOutput(m) ? i : at), -1);
    messages = messages.map((m, i) => (isToolOutput(m) && i !== last && text(m).length > max ? { ...m, content: clip(text(m), max) } : m));
  }
  const overChars = () => (size() - budget) * 3 + 200;
  if (parts && knowledge && size() > budget) {
    // Whole items, by the knowledge's own priorities: other tables' columns and dictionaries
    // first, the rules and the question's own tables last — each named where it was left out.
    const shorter = refitKnowledge(knowledge, parts.block, overChars());
    if (shorter !== undefined) {
      parts.block = shorter;
      setSystem(parts);
      changes.push('knowledge shown in less detail');
    }
  }
  if (size() > budget) {
    const sys = messages.findIndex((m) => m.role === 'system' || m.role === 'developer');
    const m = messages[sys];
    if (parts) {
      // The knowledge is as short as it goes: the instructions around it are clipped, never the
      // knowledge itself; the protected sections (tool protocol, summary) stay whole as below.
      const before = parts.pre.length + parts.post.length;
      parts.pre = clipUnprotected(parts.pre, overChars(), 400);
      setSystem(parts);
      if (size() > budget) {
        parts.post = clipUnprotected(parts.post, overChars(), 200);
        setSystem(parts);
      }
      if (parts.pre.length + parts.post.length < before) changes.push('system prompt shortened');
    } else if (m) {
      const over = (size() - budget) * 3 + 200;
      // The text tool protocol's section stays whole (without it the model cannot call a tool), and
      // so does the summary of earlier turns (it stands for turns no longer sent at all).
      const whole = text(m);
      const at = firstProtected(whole);
      const head = at >= 0 ? whole.slice(0, at) : whole;
      const keep = Math.max(400, head.length - over);
      if (keep < head.length) {
        messages[sys] = { ...m, content: clip(head, keep) + (at >= 0 ? `\n\n${whole.slice(at)}` : '') };
        changes.push('system prompt shortened');
      }
    }
  }
  const out: Json = { ...body, messages };
  const room = Math.max(64, window - size());
  if (asked !== undefined && asked > room) {
    out[maxField] = room;
    changes.push(`reply capped at ${room} tokens`);
  }
  return done({ body: out, changes });
}

/** The knowledge section about `over` (estimate) characters shorter, or undefined when it cannot be. */
function refitKnowledge(knowledge: KnowledgeSection, current: string, over: number): string | undefined {
  // The estimate counts JSON text (escaped newlines and quotes), a little longer than the text itself.
  const ratio = current.length / Math.max(1, JSON.stringify(current).length - 2);
  const shorter = knowledge.shrink(Math.max(0, current.length - Math.ceil(over * ratio)));
  return shorter.length < current.length ? shorter : undefined;
}
