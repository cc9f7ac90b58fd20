/**
 * Long threads: when what would be sent to the model outgrows the context budget, the older
 * turns are compacted into one summary (a `conversation_summary` structured-output call). The
 * thread keeps every original message for the UI; only the model's view is compacted — the
 * `summary` channel holds the text and `summarizedThrough` the number of leading messages it
 * replaces (messages are append-only, so the index stays valid).
 */
import { structuredOutput, transientLadder, type LadderMemory } from '../llm/structured';
import { SUMMARY_HEADING } from '../llm/contextWindow';
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatOpenAICompletions } from '@langchain/openai';
import type { LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { ConversationSummarySchema } from '../../../protocol/agent/structured';
import { INTERNAL_FLAG } from '../core/threadView';
import { plural } from '../../../shared/text';

/** A rough token count: about four characters a token for English text and code. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function messageChars(m: BaseMessage): number {
  const calls = (m as BaseMessage & { tool_calls?: unknown[] }).tool_calls;
  return m.text.length + (calls && calls.length > 0 ? JSON.stringify(calls).length : 0);
}

export function estimateMessagesTokens(messages: readonly BaseMessage[]): number {
  return Math.ceil(messages.reduce((n, m) => n + messageChars(m) + 16, 0) / 4);
}

/**
 * The budget when the user set none: large hosted models take far more than small local ones
 * (Ollama serves 2–8k tokens by default), so unknown models get the cautious figure.
 */
export function defaultContextBudget(model: string): number {
  const m = model.toLowerCase();
  if (/gpt-4o|gpt-4\.1|gpt-5|o[134]-|claude|gemini|llama-3\.[13]|qwen2\.5|deepseek|mistral-large/.test(m)) return 48_000;
  return 6_000;
}

/** The user's budget when it is a sensible number, else the model's default. */
export function contextBudget(model: string, configured?: number): number {
  return configured !== undefined && Number.isFinite(configured) && configured >= 200 ? Math.floor(configured) : defaultContextBudget(model);
}

export const isQuestion = (m: BaseMessage) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true;

/**
 * Where the model's view should start: the earliest turn boundary (a user question) after which
 * the rest fits in `share` of the budget, never past the latest question. `undefined` when no
 * compaction is needed or possible. Cutting only at questions keeps tool calls with their results.
 */
export function planCut(
  messages: readonly BaseMessage[],
  watermark: number,
  fixedTokens: number,
  budget: number,
  share = 0.6,
): number | undefined {
  if (fixedTokens + estimateMessagesTokens(messages.slice(watermark)) <= budget) return undefined;
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (i > watermark && isQuestion(m)) starts.push(i);
  });
  if (starts.length === 0) return undefined;
  const target = budget * share - fixedTokens;
  for (const s of starts) {
    if (estimateMessagesTokens(messages.slice(s)) <= target) return s;
  }
  return starts[starts.length - 1];
}

const MAX_MESSAGE_CHARS = 2_000;

/** The turns to summarise as plain text (tool outputs shortened; guard notes left out). */
export function transcript(messages: readonly BaseMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.additional_kwargs?.[INTERNAL_FLAG] === true) continue;
    const type = m.getType();
    const calls = (m as BaseMessage & { tool_calls?: { name: string; args: unknown }[] }).tool_calls ?? [];
    const text = m.text.length > MAX_MESSAGE_CHARS ? `${m.text.slice(0, MAX_MESSAGE_CHARS)}…` : m.text;
    if (type === 'human') lines.push(`User: ${text}`);
    else if (type === 'ai') {
      if (text) lines.push(`Assistant: ${text}`);
      for (const c of calls) lines.push(`Assistant called ${c.name}: ${JSON.stringify(c.args).slice(0, MAX_MESSAGE_CHARS)}`);
    } else if (type === 'tool') lines.push(`Tool ${m.name ?? ''} returned: ${text}`);
  }
  return lines.join('\n');
}

export const SUMMARY_INSTRUCTIONS =
  'Summarise the earlier part of a data-analysis conversation so the assistant can continue it without the original messages. ' +
  'Keep every question asked, the datasets and columns used, the methods, the exact figures found, conclusions and anything left open. ' +
  'Be concise; no preamble.';

/** The system text the model gets: the run's prompt plus the summary of the compacted turns. */
export function withSummary(systemPrompt: string, summary: string | undefined): string {
  return summary ? `${systemPrompt}\n\n${SUMMARY_HEADING}\n${summary}` : systemPrompt;
}

export interface SummaryState {
  messages: BaseMessage[];
  systemPrompt: string;
  summary?: string;
  summarizedThrough?: number;
}

/** The messages the model sees: everything after the watermark. */
export function visibleMessages(state: SummaryState): BaseMessage[] {
  return state.messages.slice(state.summarizedThrough ?? 0);
}

export type SummarizeResult = { summary: string; summarizedThrough: number } | undefined;

/**
 * The `summarize` step: compacts when over budget, reporting a `summarizing` status through
 * `onStatus`. A summariser that fails leaves the view as it was (the run still gets a chance);
 * an abort is rethrown so Stop stops.
 */
export function createSummarizer(model: ChatOpenAICompletions, budget: number, ladder: LadderMemory = transientLadder(), onAdapt?: (detail: string) => void) {
  const summarizer = structuredOutput(model, ConversationSummarySchema, 'conversation_summary', ladder, onAdapt);
  return async function summarize(state: SummaryState, config: LangGraphRunnableConfig, onStatus: (detail: string) => void): Promise<SummarizeResult> {
    const watermark = state.summarizedThrough ?? 0;
    const fixed = estimateTokens(withSummary(state.systemPrompt, state.summary));
    const cut = planCut(state.messages, watermark, fixed, budget);
    if (cut === undefined || cut <= watermark) return undefined;
    const older = state.messages.slice(watermark, cut);
    const turns = older.filter(isQuestion).length;
    onStatus(`The conversation is longer than the ${budget}-token budget; summarising ${plural(turns, 'earlier turn')}.`);
    const body = [state.summary ? `Summary so far:\n${state.summary}\n\nLater turns:` : 'Turns:', transcript(older)].join('\n');
    try {
      // No `config` here: its callbacks would stream the summary's JSON as answer tokens.
      const out = await summarizer.invoke([new SystemMessage(SUMMARY_INSTRUCTIONS), new HumanMessage(body)], config.signal ? { signal: config.signal } : {});
      return { summary: out.summary, summarizedThrough: cut };
    } catch (e) {
      if (config.signal?.aborted) throw e;
      return undefined;
    }
  };
}
