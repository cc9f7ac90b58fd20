import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { createChatModel, transientMemory } from './chatModel';
import { StructuredOutputError, structuredOutput, tolerantJson, transientLadder } from './structured';

const mock = useMockEndpoint();
const Answer = z.object({ answer: z.number() });
const model = () => createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'm' }, { memory: transientMemory(), maxRetries: 0 });

describe('tolerantJson', () => {
  it('reads JSON in a fence, in prose, after a think block, with trailing commas', () => {
    expect(tolerantJson('```json\n{"answer": 5,}\n```')).toEqual({ answer: 5 });
    expect(tolerantJson('Sure! Here it is: {"answer": 5} — hope that helps.')).toEqual({ answer: 5 });
    expect(tolerantJson('<think>{"answer": 4} no wait</think>\n{"answer": 5}')).toEqual({ answer: 5 });
    expect(() => tolerantJson('no JSON here')).toThrow();
  });
});

describe('the structured-output ladder', () => {
  it('walks down on refusals and unparsable answers, remembers the rung, and starts there next time', async () => {
    await mock.script([
      { type: 'error', status: 400, message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." },
      { type: 'error', status: 400, message: 'tool_choice object is not supported' },
      { type: 'text', content: 'I think it is five.' },
      { type: 'text', content: 'Answer: ```json\n{"answer": 5,}\n```' },
      { type: 'text', content: '{"answer": 6}' },
    ]);
    const ladder = transientLadder();
    const notes: string[] = [];
    const caller = structuredOutput(model(), Answer, 'probe_answer', ladder, (d) => notes.push(d));
    expect(await caller.invoke([new HumanMessage('2+3?')])).toEqual({ answer: 5 });
    expect(ladder.rung()).toBe('text');
    expect(notes[0]).toMatch(/JSON schema: .*function calling: .*JSON mode: /);
    expect(await caller.invoke([new HumanMessage('again')])).toEqual({ answer: 6 });
    expect((await mock.chatRequests()).length).toBe(5);
  });

  it('says why when every rung fails, and never hides a key or rate-limit failure', async () => {
    await mock.script([
      { type: 'text', content: 'nope' },
      { type: 'text', content: 'nope' },
      { type: 'text', content: 'nope' },
      { type: 'text', content: 'still no JSON' },
    ]);
    const err = await structuredOutput(model(), Answer, 'probe_answer', transientLadder())
      .invoke([new HumanMessage('q')])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StructuredOutputError);
    expect(String((err as Error).message)).toMatch(/JSON schema: .*plain text: /);
    await mock.script([{ type: 'error', status: 429, message: 'slow down' }]);
    await expect(structuredOutput(model(), Answer, 'probe_answer', transientLadder()).invoke([new HumanMessage('q')])).rejects.toMatchObject({ status: 429 });
  });

  it('asks a JSON schema of the endpoint whatever the model is called, and a method the library refuses when built is only a failed rung', async () => {
    // @langchain/openai refuses withStructuredOutput(…, { method: 'jsonSchema' }) for gpt-3* names
    // at construction ("JSON Schema is not supported for model …"): the run never ended (issue 30).
    await mock.script([{ type: 'structured', value: { answer: 5 } }]);
    const named = createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'gpt-3.5-turbo' }, { memory: transientMemory(), maxRetries: 0 });
    expect(await structuredOutput(named, Answer, 'probe_answer', transientLadder()).invoke([new HumanMessage('2+3?')])).toEqual({ answer: 5 });
    expect(((await mock.chatRequests())[0]?.body as { response_format?: { type?: string } }).response_format?.type).toBe('json_schema');

    await mock.reset();
    await mock.script([{ type: 'error', status: 400, message: "'response_format' of type 'json_schema' is not supported" }, { type: 'text', content: '{"answer": 7}' }]);
    const refusing = model();
    refusing.withStructuredOutput = () => {
      throw new Error('JSON Schema is not supported for model "x".');
    };
    const ladder = transientLadder();
    expect(await structuredOutput(refusing, Answer, 'probe_answer', ladder).invoke([new HumanMessage('q')])).toEqual({ answer: 7 });
    expect(ladder.rung()).toBe('text');
    expect(await mock.chatRequests()).toHaveLength(2);
  });
});
