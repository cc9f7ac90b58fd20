/**
 * Bench rows for issue #10: how many requests beyond the script's own each provider persona
 * costs per question, through the app's real chat model and wire adapter. A "question" is the
 * four model calls of a validated answer (two tool calls, the validation_report, the answer);
 * the second question of a thread reuses what the first learned (refusals, structured rung).
 * Loaded by bench/providers.mjs through Vite's SSR loader (no browser needed).
 */
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { RunSqlArgsSchema } from '../protocol/agent/tools';
import { ValidationReportSchema } from '../protocol/agent/structured';
import { createChatModel } from '../workers/agent/llm/chatModel';
import { structuredOutput, type LadderMemory } from '../workers/agent/llm/structured';
import type { StructuredRung } from '../workers/agent/llm/endpointProfile';

export const PERSONAS: { persona: string; model: string }[] = [
  { persona: 'openai-reasoning', model: 'gpt-5-mini' },
  { persona: 'openai-reasoning', model: 'team-reasoner' },
  { persona: 'no-stream-options', model: 'local-model' },
  { persona: 'deepseek', model: 'deepseek-reasoner' },
  { persona: 'openrouter', model: 'deepseek/deepseek-r1' },
  { persona: 'inline-think', model: 'qwen3:8b' },
  { persona: 'groq-tool-use-failed', model: 'llama-3.3-70b-versatile' },
  { persona: 'json-in-text', model: 'llama3.2:3b' },
  { persona: 'tool-call-quirks', model: 'gemini-2.5-flash' },
];

const runSql = tool(async () => '', { name: 'run_sql', description: 'Run DuckDB SQL', schema: RunSqlArgsSchema });
const SQL = { sql: 'SELECT 1' };
const REPLIES_PER_QUESTION = 4;

interface Control {
  url: string;
  script(replies: unknown[], extra: Record<string, unknown>): Promise<void>;
  chatRequests(): Promise<number>;
  reset(): Promise<void>;
}

/** Extra requests for the first and the second question of a thread, per persona. */
export async function measure(control: Control): Promise<{ persona: string; model: string; first: number; second: number }[]> {
  const out = [];
  for (const { persona, model } of PERSONAS) {
    await control.reset();
    const refused = new Set<string>();
    let rung: StructuredRung | undefined;
    const ladder: LadderMemory = { rung: () => rung, remember: (r) => void (rung = r) };
    const chat = createChatModel(
      { baseUrl: `${control.url}/v1`, apiKey: 'bench', model },
      { maxRetries: 0, memory: { refused, remember: (p) => void refused.add(p) } },
    );
    const critic = structuredOutput(chat, ValidationReportSchema, 'validation_report', ladder);
    const counts: number[] = [];
    for (let q = 0; q < 2; q++) {
      const before = await control.chatRequests();
      await control.script(
        [
          { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }], reasoning: 'think' },
          { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }] },
          { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
          { type: 'text', content: 'The answer is 1.' },
        ],
        { persona },
      );
      const bound = chat.bindTools([runSql]);
      for (let i = 0; i < 2; i++) for await (const _ of await bound.stream([new HumanMessage('q')])) void _;
      await critic.invoke([new HumanMessage('check')]);
      for await (const _ of await chat.stream([new HumanMessage('answer')])) void _;
      counts.push((await control.chatRequests()) - before - REPLIES_PER_QUESTION);
    }
    out.push({ persona, model, first: counts[0] ?? NaN, second: counts[1] ?? NaN });
  }
  return out;
}
