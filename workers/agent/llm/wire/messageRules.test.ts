/**
 * Message rules learned from an endpoint's own words (issue 30). Each wording handled is cited
 * beside the case that replays it; the wire cases run the real @langchain/openai client against
 * the scripted endpoint's personas (testing/mock-llm/personas/messageRules.mjs).
 */
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { useMockEndpoint } from '../../testing/mockEndpoint';
import { createChatModel, transientMemory } from '../chatModel';
import { applyMessageRules, messageRuleFor, type MessageRule } from './messageRules';
import type { WireMemory } from './wireFetch';
import { probeCapabilities } from '../capabilityProbe';
import { MemoryEndpointProfileStore } from '../endpointProfile';

const sys = { role: 'system', content: 'You are Dataseer.' };
const user = { role: 'user', content: 'How many?' };

describe('messageRuleFor: the class of a refusal, from its words', () => {
  it('a refused system role (vLLM + Gemma: https://github.com/vllm-project/vllm/pull/2964, https://github.com/huggingface/chat-ui/issues/1386)', () => {
    expect(messageRuleFor(400, 'System role not supported', { messages: [sys, user] })?.rule).toBe('fold_system');
    // Only when the request carried the role.
    expect(messageRuleFor(400, 'System role not supported', { messages: [user] })).toBeUndefined();
  });

  it('a refused developer role, which lists system as allowed (not a system refusal)', () => {
    const dev = { messages: [{ role: 'developer', content: 'x' }, user] };
    // https://github.com/CherryHQ/cherry-studio/issues/3045
    expect(messageRuleFor(400, "Invalid value: 'developer'. Supported values are: 'system', 'assistant', 'tool' and 'user'.", dev)?.rule).toBe('developer_as_system');
    // https://github.com/can1357/oh-my-pi/issues/843
    expect(messageRuleFor(400, "developer is not one of ['system', 'assistant', 'user', 'tool', 'function'] - 'messages.[6].role'", dev)?.rule).toBe('developer_as_system');
    // https://github.com/earendil-works/pi/issues/1048 (DeepSeek)
    expect(messageRuleFor(400, 'messages[0].role: unknown variant `developer`, expected one of `system`, `user`, `assistant`, `tool`', dev)?.rule).toBe('developer_as_system');
    // https://github.com/QuantumNous/new-api/issues/5330
    expect(messageRuleFor(400, "invalid parameter 'messages[0].role': invalid role 'developer', must be one of: system, user, assistant, tool", dev)?.rule).toBe('developer_as_system');
    // https://github.com/peonist-ai/halogen-flash-server/issues/32 names no role: not guessed.
    expect(messageRuleFor(400, 'chat template rejected the request: Unexpected message role.', dev)).toBeUndefined();
  });

  it('a field missing from an earlier assistant message', () => {
    const sent = { messages: [user, { role: 'assistant', content: '', tool_calls: [{ id: 'c1' }] }] };
    // Moonshot Kimi K2: https://github.com/mastra-ai/mastra/issues/12592, https://github.com/cloudwego/eino-ext/issues/700
    expect(messageRuleFor(400, 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 2', sent)?.rule).toBe('keep_reasoning');
    // DeepSeek V4 thinking mode: https://github.com/QwenLM/qwen-code/issues/3724
    expect(messageRuleFor(400, 'The reasoning_content in the thinking mode must be passed back to the API.', sent)?.rule).toBe('keep_reasoning');
  });

  it('a message-order rule (https://github.com/OpenSecretCloud/opensecret/issues/120, https://github.com/FlowiseAI/Flowise/issues/2006)', () => {
    expect(messageRuleFor(400, 'Conversation roles must alternate user/assistant/user/assistant/...', { messages: [user, user] })?.rule).toBe('merge_roles');
    expect(messageRuleFor(400, 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row', { messages: [user, user] })?.rule).toBe('merge_roles');
  });

  it('names nothing for refusals of another kind (a parameter, a key, a model)', () => {
    for (const m of ["Unsupported parameter: 'max_tokens' is not supported with this model.", 'Incorrect API key provided', 'The model `x` does not exist']) {
      expect(messageRuleFor(400, m, { messages: [sys, user] })).toBeUndefined();
    }
    expect(messageRuleFor(500, 'System role not supported', { messages: [sys, user] })).toBeUndefined();
  });
});

describe('applyMessageRules', () => {
  const rules = (...r: MessageRule[]) => new Set<MessageRule>(r);
  it('folds instructions into the first user message, whatever its content shape', () => {
    expect(applyMessageRules({ messages: [sys, user] }, rules('fold_system')).messages).toEqual([{ role: 'user', content: 'You are Dataseer.\n\nHow many?' }]);
    const parts = { role: 'user', content: [{ type: 'text', text: 'Q' }, { type: 'image_url', image_url: { url: 'data:' } }] };
    expect(applyMessageRules({ messages: [sys, parts] }, rules('fold_system')).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'You are Dataseer.' }, ...parts.content] }]);
  });

  it('sends developer as system; merges runs of one role but never a tool-call turn', () => {
    expect(applyMessageRules({ messages: [{ role: 'developer', content: 'd' }, user] }, rules('developer_as_system')).messages).toEqual([{ role: 'system', content: 'd' }, user]);
    const call = { role: 'assistant', content: '', tool_calls: [{ id: 'c' }] };
    const merged = applyMessageRules({ messages: [user, { role: 'user', content: 'More.' }, call, call] }, rules('merge_roles')).messages;
    expect(merged).toEqual([{ role: 'user', content: 'How many?\n\nMore.' }, call, call]);
  });

  it('puts kept reasoning back on tool-call messages only', () => {
    const call = { role: 'assistant', content: '', tool_calls: [{ id: 'c1' }] };
    const out = applyMessageRules({ messages: [user, call, { role: 'assistant', content: 'done' }] }, rules('keep_reasoning'), (_f, ids) => (ids[0] === 'c1' ? 'I should count.' : undefined)).messages;
    expect(out).toEqual([user, { ...call, reasoning_content: 'I should count.' }, { role: 'assistant', content: 'done' }]);
  });
});

const mock = useMockEndpoint();
const addTool = tool(async () => '', { name: 'add', description: 'Adds.', schema: z.object({ a: z.number() }) });

function model(memory: WireMemory, notes: string[], name = 'm') {
  return createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: name }, { memory, onAdapt: (d) => notes.push(d), maxRetries: 0 });
}
function memoryWithRules(): WireMemory & { learned: Set<MessageRule> } {
  const learned = new Set<MessageRule>();
  return { ...transientMemory(), rules: learned, learned, learnRule: (r) => void learned.add(r) };
}
const bodies = async () => (await mock.chatRequests()).map((r) => r.body as { messages: { role: string; content: unknown; reasoning_content?: string }[] });

describe('on the wire: learned once, said once, retried once', () => {
  it('vLLM + Gemma: "System role not supported" → folded into the first user message, remembered', async () => {
    await mock.script([{ type: 'text', content: 'one' }, { type: 'text', content: 'two' }], { persona: 'vllm-gemma' });
    const memory = memoryWithRules();
    const notes: string[] = [];
    const chat = model(memory, notes);
    expect((await chat.invoke([new SystemMessage('Be brief.'), new HumanMessage('Hi')])).text).toBe('one');
    expect((await chat.invoke([new SystemMessage('Be brief.'), new HumanMessage('Again')])).text).toBe('two');
    const sent = await bodies();
    expect(sent.map((b) => b.messages[0]?.role)).toEqual(['system', 'user', 'user']);
    expect(sent[2]?.messages).toEqual([{ role: 'user', content: 'Be brief.\n\nAgain' }]);
    expect([...memory.learned]).toEqual(['fold_system']);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^Adjusted to the endpoint: .*System role not supported/);
  });

  it('a gateway refusing the developer role @langchain/openai picks by model name (o3-mini) → system', async () => {
    await mock.script([{ type: 'text', content: 'ok' }], { persona: 'no-developer-role' });
    const memory = memoryWithRules();
    const notes: string[] = [];
    expect((await model(memory, notes, 'o3-mini').invoke([new SystemMessage('Be brief.'), new HumanMessage('Hi')])).text).toBe('ok');
    expect((await bodies()).map((b) => b.messages[0]?.role)).toEqual(['developer', 'system']);
    expect([...memory.learned]).toEqual(['developer_as_system']);
  });

  it('Kimi K2 thinking: the reasoning of the tool-call message goes back after its refusal', async () => {
    await mock.script([{ type: 'tool_calls', calls: [{ id: 'call_1', name: 'add', arguments: { a: 1 } }], reasoning: 'I should add.' }, { type: 'text', content: 'It is 1.' }], { persona: 'kimi-thinking' });
    const memory = memoryWithRules();
    const notes: string[] = [];
    const chat = model(memory, notes, 'kimi-k2-thinking');
    const history: BaseMessage[] = [new HumanMessage('Add 1')];
    let first: AIMessageChunk | undefined;
    for await (const c of await chat.bindTools([addTool]).stream(history)) first = first ? first.concat(c) : c;
    expect(first?.additional_kwargs.reasoning_content).toBe('I should add.');
    const call = first?.tool_calls?.[0];
    history.push(new AIMessage({ content: first?.content ?? '', tool_calls: first?.tool_calls ?? [], additional_kwargs: first?.additional_kwargs ?? {} }));
    history.push(new ToolMessage({ tool_call_id: call?.id ?? '', content: '1' }));
    expect((await chat.bindTools([addTool]).invoke(history)).text).toBe('It is 1.');
    const sent = await bodies();
    expect(sent).toHaveLength(3);
    expect(sent[1]?.messages[1]?.reasoning_content).toBeUndefined();
    expect(sent[2]?.messages[1]?.reasoning_content).toBe('I should add.');
    expect([...memory.learned]).toEqual(['keep_reasoning']);
    expect(notes).toHaveLength(1);
  });

  it('a rule already in force that is refused again goes up as it came (one retry, no loop)', async () => {
    await mock.script([], { persona: 'alternating-roles' });
    const memory = memoryWithRules();
    const notes: string[] = [];
    const err = await model(memory, notes)
      .invoke([new HumanMessage('a'), new AIMessage({ content: '', tool_calls: [{ id: 'x', name: 'add', args: { a: 1 } }] }), new ToolMessage({ tool_call_id: 'x', content: '1' }), new AIMessage('b'), new AIMessage('c')])
      .catch((e: unknown) => e);
    // merge_roles turned "b","c" into one message, but the request still has user…assistant(tool)…assistant: refused again.
    expect(String((err as Error).message)).toMatch(/roles must alternate/);
    expect(await bodies()).toHaveLength(2);
    expect(notes).toHaveLength(1);
  });

  it('Test connection meets the refusal (its tool probe carries a system message), learns the rule and shows it; runs start with it', async () => {
    await mock.script(
      [
        { type: 'tool_calls', calls: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }] },
        { type: 'structured', value: { answer: 5 } },
      ],
      { persona: 'vllm-gemma' },
    );
    const profiles = new MemoryEndpointProfileStore();
    const settings = { baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'gemma-2-9b-it' };
    const report = await probeCapabilities(settings, profiles, { images: false });
    expect(report.tools).toBe(true);
    expect(report.summary).toMatch(/Adjusted to the endpoint: instructions folded into the first user message/);
    expect((await profiles.get(settings.baseUrl, settings.model))?.messageRules).toEqual(['fold_system']);
  });
});

