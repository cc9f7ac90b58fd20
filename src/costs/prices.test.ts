import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, costLabel, costOf, formatUsd, isLocalEndpoint, mergePrices, parsePriceEdits, priceFor, withPriceEdit, type PriceRow } from './prices';
import { gauntletEstimate, TYPICAL_ITEM_TOKENS } from './estimate';
import type { RunUsage } from '../../protocol/agent/usage';

const OPENAI = 'https://api.openai.com/v1';
const run = (over: Partial<RunUsage> = {}): RunUsage => ({ input_tokens: 10_000, output_tokens: 1_000, requests: 3, estimated: false, model: 'gpt-4o-mini', base_url: OPENAI, ...over });

describe('price arithmetic', () => {
  it('prices input and output tokens per million', () => {
    expect(costOf(1_000_000, 0, { input: 0.15, output: 0.6 })).toBeCloseTo(0.15, 10);
    expect(costOf(10_000, 1_000, { input: 0.15, output: 0.6 })).toBeCloseTo(0.0015 + 0.0006, 10);
    expect(costOf(0, 0, { input: 5, output: 25 })).toBe(0);
  });

  it('formats small amounts without hiding them', () => {
    expect([0, 0.00004, 0.0021, 0.5, 3.456].map(formatUsd)).toEqual(['$0', '<$0.0001', '$0.0021', '$0.5000', '$3.46']);
  });
});

describe('priceFor', () => {
  it('takes the longest model prefix of the endpoint preset', () => {
    expect(priceFor(DEFAULT_PRICES, OPENAI, 'gpt-4o-mini-2024-07-18')).toMatchObject({ input: 0.15, output: 0.6, local: false });
    expect(priceFor(DEFAULT_PRICES, OPENAI, 'gpt-4o')).toMatchObject({ input: 2.5, output: 10 });
    expect(priceFor(DEFAULT_PRICES, OPENAI, 'GPT-5-mini')).toMatchObject({ input: 0.25, output: 2 });
    // A model the preset's table lacks has no price rather than a neighbour's.
    expect(priceFor(DEFAULT_PRICES, OPENAI, 'claude-sonnet-4')).toBeNull();
    expect(priceFor(DEFAULT_PRICES, 'https://llm.example.com/v1', 'gpt-4o')).toBeNull();
  });

  it("prices OpenRouter's vendor/model names and Azure deployments from the vendor's rows", () => {
    expect(priceFor(DEFAULT_PRICES, 'https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4.5')).toMatchObject({ input: 3, output: 15 });
    expect(priceFor(DEFAULT_PRICES, 'https://res.openai.azure.com/openai/deployments/d', 'gpt-4.1-mini')).toMatchObject({ input: 0.4, output: 1.6 });
  });

  it('costs nothing on a local server, whatever the model', () => {
    for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:1234/v1', 'http://[::1]:8080/v1', 'http://192.168.1.20:8000/v1', 'http://gpu.local:8000/v1']) {
      expect(isLocalEndpoint(url), url).toBe(true);
      expect(priceFor(DEFAULT_PRICES, url, 'gpt-4o')).toEqual({ input: 0, output: 0, local: true });
    }
    expect(isLocalEndpoint('https://api.groq.com/openai/v1')).toBe(false);
    // Unless the user priced it (a paid gateway on the network).
    const priced = [{ preset: 'Custom', model: 'gw', input: 1, output: 2 }];
    expect(priceFor(priced, 'http://10.0.0.5:4000/v1', 'gw-large')).toMatchObject({ input: 1, output: 2, local: false });
    expect(isLocalEndpoint('http://172.32.0.1/v1')).toBe(false);
  });
});

describe('the editable table', () => {
  it("lets the user's rows replace a default and add new ones, and takes them back", () => {
    const edits = withPriceEdit([], { preset: 'OpenAI', model: 'gpt-4o-mini' }, { input: 1, output: 2 });
    const added = withPriceEdit(edits, { preset: 'Custom', model: 'my-model' }, { input: 0.5, output: 0.5 });
    const table = mergePrices(DEFAULT_PRICES, added);
    expect(table).toHaveLength(DEFAULT_PRICES.length + 1);
    expect(priceFor(table, OPENAI, 'gpt-4o-mini')).toMatchObject({ input: 1, output: 2 });
    expect(priceFor(table, 'https://llm.example.com/v1', 'my-model-v2')).toMatchObject({ input: 0.5 });
    const back = mergePrices(DEFAULT_PRICES, withPriceEdit(added, { preset: 'OpenAI', model: 'GPT-4o-mini ' }, null));
    expect(priceFor(back, OPENAI, 'gpt-4o-mini')).toMatchObject({ input: 0.15 });
  });

  it('drops stored rows that are not prices', () => {
    const text = JSON.stringify([{ preset: 'OpenAI', model: 'x', input: 1, output: 2 }, { preset: 'OpenAI', model: 'y', input: -1, output: 2 }, { preset: 'OpenAI', model: '', input: 1, output: 1 }, 'z']);
    expect(parsePriceEdits(text)).toEqual([{ preset: 'OpenAI', model: 'x', input: 1, output: 2 }]);
    expect(parsePriceEdits('{not json')).toEqual([]);
    expect(parsePriceEdits(null)).toEqual([]);
  });
});

describe('costLabel', () => {
  it("shows an answer's tokens and its estimated cost", () => {
    expect(costLabel([run()], DEFAULT_PRICES)?.text).toBe('11,000 tokens · est. $0.0021');
    expect(costLabel([run()], DEFAULT_PRICES)?.detail).toContain('10,000 in, 1,000 out over 3 requests');
  });

  it('says ≈ when the endpoint reported no counts', () => {
    const label = costLabel([run({ estimated: true })], DEFAULT_PRICES);
    expect(label?.text).toBe('≈11,000 tokens · est. ≈$0.0021');
    expect(label?.detail).toContain('estimated from text length');
  });

  it('prices each run by its own model and sums a conversation', () => {
    const label = costLabel([run(), run({ model: 'gpt-4o', input_tokens: 1_000_000, output_tokens: 0 }), undefined], DEFAULT_PRICES);
    expect(label?.text).toBe('1,011,000 tokens · est. $2.50');
  });

  it('says when a model has no price, and that a local server costs nothing', () => {
    expect(costLabel([run({ base_url: 'https://llm.example.com/v1', model: 'mystery' })], DEFAULT_PRICES)?.text).toBe('11,000 tokens · no price for mystery');
    expect(costLabel([run({ base_url: 'http://localhost:11434/v1', model: 'qwen3' })], DEFAULT_PRICES)?.text).toBe('11,000 tokens · $0 (local)');
    expect(costLabel([undefined], DEFAULT_PRICES)).toBeNull();
  });
});

describe('gauntletEstimate', () => {
  const table: PriceRow[] = [{ preset: 'OpenAI', model: 'm', input: 1, output: 10 }];
  const endpoint = { baseUrl: OPENAI, model: 'm' };

  it('uses typical tokens per item until an item was measured', () => {
    const e = gauntletEstimate(40, [], endpoint, table);
    expect(e).toMatchObject({ items: 40, basis: 'typical', input: 40 * TYPICAL_ITEM_TOKENS.input, output: 40 * TYPICAL_ITEM_TOKENS.output, local: false });
    expect(e.cost).toBeCloseTo((40 * TYPICAL_ITEM_TOKENS.input * 1 + 40 * TYPICAL_ITEM_TOKENS.output * 10) / 1e6, 10);
  });

  it("prefers this model's measured items, then any model's", () => {
    const runs = [
      { model: 'other', items: [{ tokens_in: 100, tokens_out: 10 }] },
      { model: 'm', items: [{ tokens_in: 2_000, tokens_out: 100 }, { tokens_in: 4_000, tokens_out: 300 }, { tokens_in: 0, tokens_out: 0 }] },
    ];
    expect(gauntletEstimate(10, runs, endpoint, table)).toMatchObject({ basis: 'this model', perItem: { input: 3_000, output: 200 }, input: 30_000, output: 2_000, cost: 0.05 });
    expect(gauntletEstimate(10, runs.slice(0, 1), endpoint, table)).toMatchObject({ basis: 'other models', input: 1_000, output: 100 });
  });

  it('has no cost without a price, and none on a local server', () => {
    expect(gauntletEstimate(5, [], { baseUrl: OPENAI, model: 'unknown' }, table).cost).toBeNull();
    expect(gauntletEstimate(5, [], { baseUrl: 'http://localhost:1234/v1', model: 'm' }, table)).toMatchObject({ cost: 0, local: true });
  });
});
