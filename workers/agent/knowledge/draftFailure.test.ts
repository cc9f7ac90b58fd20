/**
 * A draft that does not come (issue 32): OpenAI's Structured Outputs `refusal` is read as a
 * refusal (one call, the model's words), and answers that are not JSON end in a sentence naming
 * the ways asked — never LangChain's parser dump with its troubleshooting URL.
 * The refusal's wire shape: `choices[0].message.refusal` with `content: null`
 * (https://platform.openai.com/docs/guides/structured-outputs/refusals; both objects carry the
 * field: https://github.com/MacPaw/OpenAI/issues/249), replayed by the scripted endpoint.
 */
import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { createChatModel, transientMemory } from '../llm/chatModel';
import { structuredOutput, transientLadder } from '../llm/structured';
import { watchRefusals, refusalInStream } from '../llm/refusalWatch';
import { DictionaryDraftSchema } from '../../../protocol/agent/knowledge';
import { draftFailure } from './draft';

const mock = useMockEndpoint();

function caller() {
  const watch = watchRefusals(fetch);
  const model = createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'm' }, { memory: transientMemory(), maxRetries: 0, fetch: watch.fetch });
  return structuredOutput(model, DictionaryDraftSchema, 'data_dictionary', transientLadder(), undefined, watch.last);
}

describe('a draft that does not come', () => {
  it("reads OpenAI's refusal as a refusal: one call, the model's words", async () => {
    await mock.script([{ type: 'refusal', refusal: "I'm sorry, I can't help with that request.", when: 'data_dictionary' }]);
    const err = await caller().invoke([new HumanMessage('Draft it')]).then(
      () => undefined,
      (e: unknown) => draftFailure(e),
    );
    expect(err?.message).toBe("the model declined: “I'm sorry, I can't help with that request.”. Start the dictionary yourself or import one.");
    expect(await mock.chatRequests()).toHaveLength(1);
  });

  it('says which ways were asked when every answer is garbage, without a parser dump or a library URL', async () => {
    await mock.script(Array.from({ length: 4 }, () => ({ type: 'text' as const, content: 'Sure! Here is the dictionary: row = respondent, very nice.', when: 'data_dictionary' })));
    const err = await caller().invoke([new HumanMessage('Draft it')]).then(
      () => undefined,
      (e: unknown) => draftFailure(e),
    );
    expect(err?.message).toMatch(/^the model's answers could not be read as a data dictionary \(asked 4 ways — JSON schema: /);
    expect(err?.message).not.toMatch(/Troubleshooting|https?:\/\/|Sure! Here/);
    expect(await mock.chatRequests()).toHaveLength(4);
  });

  it('reads a streamed refusal from its delta pieces', () => {
    const sse = ['data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}', 'data: {"choices":[{"index":0,"delta":{"refusal":"I can"}}]}', 'data: {"choices":[{"index":0,"delta":{"refusal":"not."}}]}', 'data: [DONE]'].join('\n\n');
    expect(refusalInStream(sse)).toBe('I cannot.');
    expect(refusalInStream('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}')).toBeUndefined();
  });
});
