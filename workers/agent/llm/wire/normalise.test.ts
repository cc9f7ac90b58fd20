import { describe, expect, it } from 'vitest';
import { ChunkNormaliser, normaliseCompletion } from './normalise';

// OpenAI: "When using Structured Outputs with user-generated input, OpenAI models may occasionally
// refuse … the API response will include a new field called `refusal`" (message.refusal, and
// delta.refusal when streaming) — https://platform.openai.com/docs/guides/structured-outputs#refusals
describe('a refusal', () => {
  it('in a whole completion becomes the message text', () => {
    const out = normaliseCompletion({ choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I'm sorry, I cannot assist with that request." }, finish_reason: 'stop' }] }, []) as {
      choices: { message: { content: string; refusal?: string } }[];
    };
    expect(out.choices[0]?.message).toEqual({ role: 'assistant', content: "I'm sorry, I cannot assist with that request." });
  });

  it('streamed in refusal deltas becomes content deltas', () => {
    const n = new ChunkNormaliser([]);
    const texts = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: null, refusal: "I'm sorry, " }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { refusal: 'I cannot assist with that.' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]
      .flatMap((c) => n.push(c))
      .flatMap((c) => (c as { choices: { delta: { content?: string; refusal?: string } }[] }).choices.map((ch) => ch.delta))
      .map((d) => {
        expect(d.refusal).toBeUndefined();
        return d.content ?? '';
      });
    expect(texts.join('')).toBe("I'm sorry, I cannot assist with that.");
  });

  it('a null refusal beside ordinary content changes nothing', () => {
    const out = normaliseCompletion({ choices: [{ index: 0, message: { role: 'assistant', content: 'Hello', refusal: null }, finish_reason: 'stop' }] }, []) as { choices: { message: unknown }[] };
    expect(out.choices[0]?.message).toEqual({ role: 'assistant', content: 'Hello', refusal: null });
  });
});
