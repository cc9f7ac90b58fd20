/**
 * Provider fields that must come back exactly (wire/roundTrip.ts) and failures after a stream
 * began (wire/streamError.ts), through the real @langchain/openai client against the scripted
 * endpoint's personas (e2e/mock-llm/personas/roundTrip.mjs, each citing its source).
 */
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import type { ChatOpenAICompletions } from '@langchain/openai';
import { RunSqlArgsSchema } from '../../../protocol/agent/tools';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { classifyLlmError, createChatModel, transientMemory } from './chatModel';
import { isTransientStreamError } from './wire/streamError';

const mock = useMockEndpoint();
const runSql = tool(async () => '', { name: 'run_sql', description: 'Run DuckDB SQL', schema: RunSqlArgsSchema });
const SQL = { sql: 'SELECT count(*) FROM penguins' };

const chatModel = (model = 'gemini-3-flash-preview', baseUrl = `${mock.url}/v1`) => createChatModel({ baseUrl, apiKey: 'sk-test', model }, { memory: transientMemory(), maxRetries: 0 });

async function streamed(model: Pick<ChatOpenAICompletions, 'stream'> | ReturnType<ChatOpenAICompletions['bindTools']>, messages: BaseMessage[]): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const c of await model.stream(messages)) full = full ? full.concat(c) : c;
  if (!full) throw new Error('no chunks');
  return full;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );

const bodies = async () => (await mock.chatRequests()).map((r) => r.body as { messages: Record<string, unknown>[] });

/** A stored AI message as the checkpointer writes and reads it back. */
async function throughCheckpoint(m: BaseMessage): Promise<BaseMessage> {
  const serde = new JsonPlusSerializer();
  const [type, bytes] = await serde.dumpsTyped({ messages: [m] });
  const back = (await serde.loadsTyped(type, bytes)) as { messages: BaseMessage[] };
  const only = back.messages[0];
  if (!only) throw new Error('lost');
  return only;
}

describe('Gemini 3: thought signatures come back on their tool call', () => {
  // https://ai.google.dev/gemini-api/docs/thought-signatures ; the refusal body is a JSON array:
  // https://github.com/manthanabc/paws/issues/103
  it('streamed (calls with finish_reason "stop", no index): kept on the message, through a checkpoint, sent back exactly', async () => {
    await mock.script([{ type: 'tool_calls', calls: [{ id: 'function-call-1', name: 'run_sql', arguments: SQL }] }, { type: 'text', content: 'There are 344 penguins.' }], { persona: 'gemini-3' });
    const chat = chatModel();
    const first = await streamed(chat.bindTools([runSql]), [new HumanMessage('How many penguins?')]);
    expect(first.tool_calls).toEqual([{ id: 'function-call-1', name: 'run_sql', args: SQL, type: 'tool_call' }]);
    const signature = (first.additional_kwargs.provider_fields as { tool_calls: Record<string, { extra_content: { google: { thought_signature: string } } }> }).tool_calls['function-call-1']?.extra_content.google.thought_signature;
    expect(signature).toMatch(/^CiQB/);
    // A fresh model (after a reload) reads the fields from the stored message.
    const stored = await throughCheckpoint(new AIMessage({ content: first.content, tool_calls: first.tool_calls ?? [], additional_kwargs: first.additional_kwargs, id: 'a1' }));
    const answer = await streamed(chatModel().bindTools([runSql]), [new HumanMessage('How many penguins?'), stored, new ToolMessage({ content: '[[344]]', tool_call_id: 'function-call-1' })]);
    expect(answer.text).toBe('There are 344 penguins.');
    const sent = (await bodies())[1]?.messages.find((m) => m.role === 'assistant') as { tool_calls: Record<string, unknown>[] };
    expect(sent.tool_calls[0]).toMatchObject({ id: 'function-call-1', extra_content: { google: { thought_signature: signature } } });
  });

  it('whole (non-streamed) replies keep the signature too', async () => {
    await mock.script([{ type: 'tool_calls', calls: [{ id: 'fc-2', name: 'run_sql', arguments: SQL }] }, { type: 'text', content: 'Done.' }], { persona: 'gemini-3' });
    const chat = chatModel();
    const first = await chat.bindTools([runSql]).invoke([new HumanMessage('q')]);
    expect(first.tool_calls?.[0]?.id).toBe('fc-2');
    const next = await chat.bindTools([runSql]).invoke([new HumanMessage('q'), first, new ToolMessage({ content: 'ok', tool_call_id: 'fc-2' })]);
    expect(next.text).toBe('Done.');
  });

  it('a lost signature: the array body is read, "no body" never shown', async () => {
    await mock.script([{ type: 'tool_calls', calls: [{ id: 'fc-3', name: 'run_sql', arguments: SQL }] }, { type: 'text', content: 'never' }], { persona: 'gemini-3' });
    const chat = chatModel();
    const first = await streamed(chat.bindTools([runSql]), [new HumanMessage('q')]);
    const bare = new AIMessage({ content: '', tool_calls: first.tool_calls ?? [] });
    const e = await failure(streamed(chat.bindTools([runSql]), [new HumanMessage('q'), bare, new ToolMessage({ content: 'ok', tool_call_id: 'fc-3' })]));
    const f = classifyLlmError(e);
    expect(f).toMatchObject({ kind: 'bad_request', status: 400, retryable: false });
    expect(f.message).toContain('HTTP 400: “Function call is missing a thought_signature in functionCall parts.');
    expect(f.message).not.toContain('no body');
  });

  it('fields go back only to the endpoint they came from', async () => {
    await mock.script([{ type: 'text', content: 'hi' }]);
    const m = new AIMessage({ content: '', tool_calls: [{ id: 'x1', name: 'run_sql', args: SQL, type: 'tool_call' }], additional_kwargs: { provider_fields: { tool_calls: { x1: { extra_content: { google: { thought_signature: 's' } } } }, endpoint: 'https://generativelanguage.googleapis.com/v1beta/openai' } } });
    await streamed(chatModel('other'), [new HumanMessage('q'), m, new ToolMessage({ content: 'ok', tool_call_id: 'x1' })]);
    expect(JSON.stringify((await bodies())[0])).not.toContain('extra_content');
  });
});

describe('OpenRouter: reasoning_details come back unmodified', () => {
  // https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks
  it('streamed fragments are put together per index and sent back on that assistant message', async () => {
    await mock.script(
      [
        { type: 'tool_calls', calls: [{ id: 'toolu_1', name: 'run_sql', arguments: SQL }], reasoning: 'Count the rows of penguins with SQL.' },
        { type: 'text', content: 'There are 344.', reasoning: 'The query said 344.' },
      ],
      { persona: 'openrouter-reasoning-details' },
    );
    const chat = chatModel('anthropic/claude-sonnet-4.5');
    const first = await streamed(chat.bindTools([runSql]), [new HumanMessage('How many?')]);
    const details = (first.additional_kwargs.provider_fields as { reasoning_details: Record<string, unknown>[] }).reasoning_details;
    expect(details).toHaveLength(2);
    expect(details[0]).toMatchObject({ type: 'reasoning.text', text: 'Count the rows of penguins with SQL.', format: 'anthropic-claude-v1', index: 0 });
    expect(details[0]?.signature).toMatch(/^EqQB/);
    expect(details[1]).toMatchObject({ type: 'reasoning.encrypted', index: 1 });
    expect(first.additional_kwargs.reasoning_content).toBe('Count the rows of penguins with SQL.');
    const stored = await throughCheckpoint(new AIMessage({ content: first.content, tool_calls: first.tool_calls ?? [], additional_kwargs: first.additional_kwargs }));
    const answer = await streamed(chatModel('anthropic/claude-sonnet-4.5').bindTools([runSql]), [new HumanMessage('How many?'), stored, new ToolMessage({ content: '344', tool_call_id: 'toolu_1' })]);
    expect(answer.text).toBe('There are 344.');
    const sent = (await bodies())[1]?.messages.find((m) => m.role === 'assistant');
    expect(sent?.reasoning_details).toEqual(details);
  });
});

describe('failures after the stream began', () => {
  it('an error event mid-stream: the provider’s words, marked transient', async () => {
    // https://openrouter.ai/docs/api/reference/errors-and-debugging
    await mock.script([{ type: 'text', content: 'partial answer that never ends' }], { persona: 'openrouter-midstream-once' });
    const e = await failure(streamed(chatModel('openai/gpt-4o'), [new HumanMessage('q')]));
    expect(isTransientStreamError(e)).toBe(true);
    const f = classifyLlmError(e);
    expect(f).toMatchObject({ kind: 'server', status: 502, retryable: true });
    expect(f.message).toContain('Upstream provider disconnected');
  });

  it('a dropped connection is transient too', async () => {
    await mock.script([{ type: 'cut', content: 'The answer is', after_chunks: 3 }]);
    const e = await failure(streamed(chatModel(), [new HumanMessage('q')]));
    expect(isTransientStreamError(e)).toBe(true);
    expect(classifyLlmError(e)).toMatchObject({ kind: 'network', retryable: true });
  });

  it('a refusal of the request itself is not a stream error', async () => {
    await mock.script([{ type: 'error', status: 400, message: 'bad' }]);
    const e = await failure(streamed(chatModel(), [new HumanMessage('q')]));
    expect(isTransientStreamError(e)).toBe(false);
  });
});
