import { describe, expect, it } from 'vitest';
import { ThinkSplitter, splitThink } from './thinkSplitter';

function run(chunks: string[]) {
  const s = new ThinkSplitter();
  let reasoning = '';
  let content = '';
  const contentAfterEach: string[] = [];
  for (const c of chunks) {
    const p = s.push(c);
    reasoning += p.reasoning;
    content += p.content;
    contentAfterEach.push(content);
  }
  const e = s.end();
  return { reasoning: reasoning + e.reasoning, content: content + e.content, contentAfterEach, sawTags: s.sawTags };
}

describe('ThinkSplitter', () => {
  it('moves a leading think block out of the answer, with tags split across chunks', () => {
    // Qwen3 behind an OpenAI-compatible server without a reasoning parser streams the block as
    // content deltas `<think>`, `\nLet me think...`, `</think>`, `\n\nHello!`:
    // https://github.com/ovh/public-cloud-roadmap/issues/1123 (whole responses alike, from Ollama:
    // https://github.com/bold84/cot_proxy/issues/3).
    const r = run(['<thi', 'nk>\nThe table has 344 rows', ', so…</th', 'ink>\n\nThere are ', '344 penguins.']);
    expect(r.reasoning).toBe('\nThe table has 344 rows, so…');
    expect(r.content).toBe('There are 344 penguins.');
    expect(r.sawTags).toBe(true);
    expect(r.contentAfterEach.slice(0, 3).every((c) => c === '')).toBe(true);
  });

  it('handles <thinking>, one-character chunks and a block opened by the prompt template', () => {
    const text = '<thinking>count rows</thinking>Answer: 3';
    expect(run(text.split(''))).toMatchObject({ reasoning: 'count rows', content: 'Answer: 3' });
    // Only the closing tag when the template opens the block: https://github.com/hiyouga/LlamaFactory/issues/8219
    expect(splitThink('sum first</think>\n\nIt is 12.')).toMatchObject({ reasoning: 'sum first', content: 'It is 12.', sawTags: true });
  });

  it('streams answers without tags at once and keeps later angle brackets', () => {
    const r = run(['There are ', '3 species <b>', ' and <think> is a word']);
    expect(r.contentAfterEach[0]).toBe('There are ');
    expect(r.content).toBe('There are 3 species <b> and <think> is a word');
    expect(r.reasoning).toBe('');
  });

  it('keeps an unterminated block as reasoning', () => {
    expect(run(['<think>still going', ' on'])).toMatchObject({ reasoning: 'still going on', content: '' });
  });
});
