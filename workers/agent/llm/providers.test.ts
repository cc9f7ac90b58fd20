/**
 * The real @langchain/openai client, through the wire adapter, against the scripted endpoint's
 * provider personas (e2e/mock-llm/personas/providers.mjs, each citing where its behaviour is
 * documented): what the graph nodes receive is the same whatever the provider's quirks.
 */
import { describe, expect, it } from 'vitest';
import { HumanMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import type { ChatOpenAICompletions } from '@langchain/openai';
import { RunSqlArgsSchema } from '../../../protocol/agent/tools';
import { ValidationReportSchema } from '../../../protocol/agent/structured';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { classifyLlmError, createChatModel, transientMemory } from './chatModel';
import type { WireObservations } from './wire/normalise';
import { structuredOutput, transientLadder } from './structured';

const mock = useMockEndpoint();
const runSql = tool(async () => '', { name: 'run_sql', description: 'Run DuckDB SQL', schema: RunSqlArgsSchema });
const SQL = { sql: 'SELECT count(*) FROM penguins' };
const REPORT = { is_valid: true, issues: [], suggestions: [], confidence: 0.9 };

function setup(model = 'mock-model') {
  const memory = transientMemory();
  const adapted: string[] = [];
  const observed: WireObservations = { reasoning: 'none', recoveredCalls: 0 };
  const chat = createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'sk-test', model }, { memory, onAdapt: (d) => adapted.push(d), observed, maxRetries: 0 });
  return { chat, memory, adapted, observed };
}

async function streamed(model: Pick<ChatOpenAICompletions, 'stream'> | ReturnType<ChatOpenAICompletions['bindTools']>, messages: BaseMessage[] = [new HumanMessage('q')]) {
  let full: AIMessageChunk | undefined;
  for await (const c of await model.stream(messages)) full = full ? full.concat(c) : c;
  if (!full) throw new Error('no chunks');
  return full;
}

const bodies = async () => (await mock.chatRequests()).map((r) => r.body as Record<string, unknown>);

describe('provider personas through the wire adapter', () => {
  it('openai-reasoning: no temperature or max_tokens for gpt-5, no extra request', async () => {
    await mock.script([{ type: 'text', content: 'There are 344 penguins.' }], { persona: 'openai-reasoning' });
    const { chat, adapted } = setup('gpt-5-mini');
    expect((await streamed(chat)).text).toBe('There are 344 penguins.');
    const sent = await bodies();
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty('temperature');
    expect(adapted).toEqual([]);
  });

  it('openai-reasoning under an unknown name: one refusal, one retry, remembered for the next request', async () => {
    await mock.script([{ type: 'text', content: 'one' }, { type: 'text', content: 'two' }], { persona: 'openai-reasoning' });
    const { chat, memory, adapted } = setup('my-azure-deployment');
    expect((await streamed(chat)).text).toBe('one');
    expect((await streamed(chat)).text).toBe('two');
    const sent = await bodies();
    expect(sent.map((b) => 'temperature' in b)).toEqual([true, false, false]);
    expect([...memory.refused]).toEqual(['temperature']);
    expect(adapted).toHaveLength(1);
    expect(adapted[0]).toContain('temperature');
  });

  it('no-stream-options: retried once without it, tokens still counted by the caller', async () => {
    await mock.script([{ type: 'text', content: 'hello' }], { persona: 'no-stream-options' });
    const { chat, memory } = setup();
    expect((await streamed(chat)).text).toBe('hello');
    expect((await bodies()).map((b) => 'stream_options' in b)).toEqual([true, false]);
    expect(memory.refused.has('stream_options')).toBe(true);
  });

  it('deepseek: reasoning_content kept out of the answer and never sent back; structured output via function calling', async () => {
    await mock.script(
      [
        { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }], reasoning: 'I should count rows.' },
        { type: 'text', content: 'There are 344.', reasoning: 'The result says 344.' },
        { type: 'structured', when: 'validation_report', value: REPORT },
      ],
      { persona: 'deepseek' },
    );
    const { chat, observed, adapted } = setup('deepseek-reasoner');
    const first = await streamed(chat.bindTools([runSql]));
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: SQL });
    expect(first.additional_kwargs.reasoning_content).toBe('I should count rows.');
    // The reasoning stays in the stored message; the second request must not carry it.
    const second = await streamed(chat, [new HumanMessage('q'), first, new HumanMessage('go on')]);
    expect(second.text).toBe('There are 344.');
    expect(JSON.stringify((await bodies())[1])).not.toContain('reasoning_content');
    expect(observed.reasoning).toBe('reasoning_content');
    const ladder = transientLadder();
    const report = await structuredOutput(chat, ValidationReportSchema, 'validation_report', ladder, (d) => adapted.push(d)).invoke([new HumanMessage('check')]);
    expect(report).toEqual(REPORT);
    expect(ladder.rung()).toBe('function_calling');
    expect(adapted.at(-1)).toMatch(/function calling.*JSON schema: .*unavailable/);
  });

  it('openrouter: keep-alive comments, `reasoning` deltas, no usage chunk', async () => {
    await mock.script([{ type: 'text', content: 'The mean is 4201.75 g.', reasoning: 'Average the body mass.' }], { persona: 'openrouter' });
    const { chat, observed } = setup('openai/gpt-4o');
    const m = await streamed(chat);
    expect(m.text).toBe('The mean is 4201.75 g.');
    expect(m.additional_kwargs.reasoning_content).toBe('Average the body mass.');
    expect(observed.reasoning).toBe('reasoning');
  });

  it('openrouter-midstream-error: an error inside a 200 stream is classified by its code', async () => {
    await mock.script([{ type: 'text', content: 'partial answer that never ends' }], { persona: 'openrouter-midstream-error' });
    const { chat } = setup();
    const e = await streamed(chat).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(classifyLlmError(e)).toMatchObject({ kind: 'rate_limit', status: 429 });
  });

  it('inline-think: <think> split across chunks, then a tool call; the whole response too', async () => {
    await mock.script(
      [
        { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }], reasoning: 'Count them; maybe 999999?' },
        { type: 'text', content: 'There are 344 penguins.' },
      ],
      { persona: 'inline-think' },
    );
    const { chat, observed } = setup('qwen3:8b');
    const m = await streamed(chat.bindTools([runSql]));
    expect(m.tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: SQL });
    expect(m.text).toBe('');
    expect(m.additional_kwargs.reasoning_content).toContain('999999');
    const whole = await chat.invoke([new HumanMessage('q')]);
    expect(whole.text).toBe('There are 344 penguins.');
    expect(String(whole.additional_kwargs.reasoning_content)).toContain('999999');
    expect(observed.reasoning).toBe('inline_tags');
  });

  it('groq-tool-use-failed: a recognisable failed generation becomes the call; an unreadable one an invalid call', async () => {
    await mock.script(
      [
        { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }] },
        { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }] },
        { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }] },
      ],
      { persona: 'groq-tool-use-failed' },
    );
    const { chat, adapted } = setup('llama-3.3-70b-versatile');
    const bound = chat.bindTools([runSql]);
    const first = await streamed(bound);
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: SQL });
    expect((await streamed(bound)).tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: SQL });
    const third = await bound.invoke([new HumanMessage('q')]);
    expect(third.tool_calls ?? []).toEqual([]);
    expect(third.invalid_tool_calls?.[0]?.name).toBe('run_sql');
    expect(adapted.some((a) => a.includes('tool_use_failed'))).toBe(true);
  });

  it('json-in-text: a call written as fenced JSON becomes a tool call, not answer text', async () => {
    await mock.script([{ type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }] }, { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: SQL }] }], { persona: 'json-in-text' });
    const { chat, observed } = setup('llama3.2:3b');
    const bound = chat.bindTools([runSql]);
    const m = await streamed(bound);
    expect(m.text).toBe('');
    expect(m.tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: SQL });
    const whole = await bound.invoke([new HumanMessage('q')]);
    expect(whole.tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: SQL });
    expect(observed.recoveredCalls).toBe(2);
  });

  it('tool-call-quirks: one chunk, no index, empty id, object arguments, finish_reason stop, two calls', async () => {
    await mock.script([{ type: 'tool_calls', content: 'Let me check.', calls: [{ name: 'run_sql', arguments: SQL }, { name: 'run_sql', arguments: { sql: 'SELECT 1' } }] }], { persona: 'tool-call-quirks' });
    const { chat } = setup();
    const m = await streamed(chat.bindTools([runSql]));
    expect(m.tool_calls?.map((c) => c.args)).toEqual([SQL, { sql: 'SELECT 1' }]);
    expect(new Set(m.tool_calls?.map((c) => c.id)).size).toBe(2);
    expect(m.tool_calls?.every((c) => typeof c.id === 'string' && c.id.length > 0)).toBe(true);
  });

  it('a 400 naming a function is a failed call, not "no tool support"; Ollama’s own words are', () => {
    expect(classifyLlmError({ status: 400, message: "400 Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details." }).kind).toBe('bad_request');
    expect(classifyLlmError({ status: 400, message: '400 registry.ollama.ai/library/gemma3:4b does not support tools' }).kind).toBe('no_tools');
  });
});
