/**
 * What tokens cost: a price table per preset (USD per million input / output tokens), the lookup
 * of a run's price by its endpoint and model, and the arithmetic. Every figure here is an
 * estimate the user can edit in Settings: providers change prices, bill cached input less, and
 * a router or a plan may charge differently.
 */
import { presetFor } from '../../shared/endpointPresets';
import type { RunUsage } from '../../protocol/agent/usage';
import { plural } from '../../shared/text';

export interface PriceRow {
  /** The preset's name (`ENDPOINT_PRESETS`), or `Custom` for any other endpoint. */
  preset: string;
  /** A model name or the start of one: the longest row matching the run's model applies. */
  model: string;
  /** USD per million input (prompt) tokens. */
  input: number;
  /** USD per million output (completion) tokens. */
  output: number;
}

export const CUSTOM_PRESET = 'Custom';

/**
 * Default list prices, standard tier, no caching or batch discount, in USD per 1M tokens. Taken
 * from the providers' pricing pages as they stood in 2025 (last checked for this table
 * 2025-10; not re-read since — edit them in Settings):
 * OpenAI https://openai.com/api/pricing/ · Anthropic https://www.anthropic.com/pricing#api ·
 * Google https://ai.google.dev/gemini-api/docs/pricing · DeepSeek https://api-docs.deepseek.com/quick_start/pricing ·
 * Groq https://groq.com/pricing · Mistral https://mistral.ai/pricing#api-pricing · xAI https://docs.x.ai/docs/models ·
 * Together https://www.together.ai/pricing. OpenRouter passes the underlying provider's price
 * through (https://openrouter.ai/docs/faq), so its `vendor/model` names use the rows below.
 */
export const DEFAULT_PRICES: readonly PriceRow[] = [
  { preset: 'OpenAI', model: 'gpt-5', input: 1.25, output: 10 },
  { preset: 'OpenAI', model: 'gpt-5-mini', input: 0.25, output: 2 },
  { preset: 'OpenAI', model: 'gpt-5-nano', input: 0.05, output: 0.4 },
  { preset: 'OpenAI', model: 'gpt-4.1', input: 2, output: 8 },
  { preset: 'OpenAI', model: 'gpt-4.1-mini', input: 0.4, output: 1.6 },
  { preset: 'OpenAI', model: 'gpt-4.1-nano', input: 0.1, output: 0.4 },
  { preset: 'OpenAI', model: 'gpt-4o', input: 2.5, output: 10 },
  { preset: 'OpenAI', model: 'gpt-4o-mini', input: 0.15, output: 0.6 },
  { preset: 'OpenAI', model: 'o3', input: 2, output: 8 },
  { preset: 'OpenAI', model: 'o3-mini', input: 1.1, output: 4.4 },
  { preset: 'OpenAI', model: 'o4-mini', input: 1.1, output: 4.4 },
  { preset: 'Anthropic', model: 'claude-opus-4-5', input: 5, output: 25 },
  { preset: 'Anthropic', model: 'claude-opus-4', input: 15, output: 75 },
  { preset: 'Anthropic', model: 'claude-sonnet-4', input: 3, output: 15 },
  { preset: 'Anthropic', model: 'claude-haiku-4-5', input: 1, output: 5 },
  { preset: 'Anthropic', model: 'claude-3-5-haiku', input: 0.8, output: 4 },
  { preset: 'Google Gemini', model: 'gemini-2.5-pro', input: 1.25, output: 10 },
  { preset: 'Google Gemini', model: 'gemini-2.5-flash', input: 0.3, output: 2.5 },
  { preset: 'Google Gemini', model: 'gemini-2.5-flash-lite', input: 0.1, output: 0.4 },
  { preset: 'Google Gemini', model: 'gemini-2.0-flash', input: 0.1, output: 0.4 },
  { preset: 'DeepSeek', model: 'deepseek-chat', input: 0.28, output: 0.42 },
  { preset: 'DeepSeek', model: 'deepseek-reasoner', input: 0.28, output: 0.42 },
  { preset: 'Groq', model: 'llama-3.3-70b-versatile', input: 0.59, output: 0.79 },
  { preset: 'Groq', model: 'llama-3.1-8b-instant', input: 0.05, output: 0.08 },
  { preset: 'Groq', model: 'openai/gpt-oss-120b', input: 0.15, output: 0.75 },
  { preset: 'Groq', model: 'openai/gpt-oss-20b', input: 0.1, output: 0.5 },
  { preset: 'Mistral', model: 'mistral-large', input: 2, output: 6 },
  { preset: 'Mistral', model: 'mistral-medium', input: 0.4, output: 2 },
  { preset: 'Mistral', model: 'mistral-small', input: 0.1, output: 0.3 },
  { preset: 'xAI', model: 'grok-4', input: 3, output: 15 },
  { preset: 'xAI', model: 'grok-4-fast', input: 0.2, output: 0.5 },
  { preset: 'xAI', model: 'grok-3-mini', input: 0.3, output: 0.5 },
  { preset: 'Together', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', input: 0.88, output: 0.88 },
];

/** Where the default prices came from, for the Settings note. */
export const PRICES_AS_OF = '2025-10';

/** Presets that serve another provider's models under their names (`vendor/model` or the same name). */
const BORROWS: Record<string, readonly string[]> = {
  OpenRouter: ['OpenAI', 'Anthropic', 'Google Gemini', 'DeepSeek', 'Mistral', 'xAI'],
  'Azure OpenAI': ['OpenAI'],
};

/** A server on this machine or the local network: no per-token bill. */
export function isLocalEndpoint(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1' || host === '0.0.0.0') return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!v4) return false;
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31);
}

/** The preset a base URL's prices are filed under. */
export function pricePreset(baseUrl: string): string {
  return presetFor(baseUrl)?.name ?? CUSTOM_PRESET;
}

export type PriceMatch = { input: number; output: number; local: boolean; row?: PriceRow };

function longestMatch(rows: readonly PriceRow[], model: string): PriceRow | undefined {
  const name = model.trim().toLowerCase();
  let best: PriceRow | undefined;
  for (const r of rows) {
    const m = r.model.trim().toLowerCase();
    if (m && name.startsWith(m) && (!best || m.length > best.model.length)) best = r;
  }
  return best;
}

/**
 * The price a run on `baseUrl` with `model` is estimated at; null when the table has none. A
 * local server costs nothing unless the user entered a price for it (a paid gateway on the LAN).
 */
export function priceFor(table: readonly PriceRow[], baseUrl: string, model: string): PriceMatch | null {
  const preset = pricePreset(baseUrl);
  const own = longestMatch(
    table.filter((r) => r.preset === preset),
    model,
  );
  if (own) return { input: own.input, output: own.output, local: false, row: own };
  if (isLocalEndpoint(baseUrl)) return { input: 0, output: 0, local: true };
  const borrowed = BORROWS[preset];
  if (!borrowed) return null;
  // OpenRouter names models `vendor/model`; the vendor's own rows price them.
  const bare = model.includes('/') ? model.slice(model.indexOf('/') + 1) : model;
  const found = longestMatch(
    table.filter((r) => borrowed.includes(r.preset)),
    bare,
  );
  return found ? { input: found.input, output: found.output, local: false, row: found } : null;
}

/** USD for the tokens at the price. */
export function costOf(inputTokens: number, outputTokens: number, price: { input: number; output: number }): number {
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}

/** A small USD amount readably: `$0`, `<$0.0001`, `$0.0123`, `$1.23`. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');

export interface CostLabel {
  /** The short line: `≈1,234 tokens · est. $0.0012`. */
  text: string;
  /** The detail (in / out, requests, the price used). */
  detail: string;
}

/** One answer's (or a conversation's) tokens and estimated cost, priced per run by its own model. */
export function costLabel(runs: readonly (RunUsage | undefined)[], table: readonly PriceRow[]): CostLabel | null {
  const present = runs.filter((u): u is RunUsage => u !== undefined);
  if (present.length === 0) return null;
  const input = present.reduce((s, u) => s + u.input_tokens, 0);
  const output = present.reduce((s, u) => s + u.output_tokens, 0);
  const requests = present.reduce((s, u) => s + u.requests, 0);
  const approx = present.some((u) => u.estimated) ? '≈' : '';
  let cost = 0;
  const unpriced = new Set<string>();
  let allLocal = true;
  for (const u of present) {
    const price = priceFor(table, u.base_url, u.model);
    if (!price) unpriced.add(u.model);
    else {
      cost += costOf(u.input_tokens, u.output_tokens, price);
      if (!price.local) allLocal = false;
    }
  }
  const tokens = `${approx}${n(input + output)} tokens`;
  const money = unpriced.size > 0 ? `no price for ${[...unpriced].join(', ')}` : allLocal ? '$0 (local)' : `est. ${approx}${formatUsd(cost)}`;
  const detail = `${approx}${n(input)} in, ${approx}${n(output)} out over ${plural(requests, 'request')}${
    approx ? '; the endpoint reported no counts for some, estimated from text length' : ''
  }. Cost is an estimate from the price table in Settings.`;
  return { text: `${tokens} · ${money}`, detail };
}

const rowKey = (r: Pick<PriceRow, 'preset' | 'model'>) => `${r.preset}\u0000${r.model.trim().toLowerCase()}`;

/** The defaults with the user's rows over them (same preset and model) and after them (new ones). */
export function mergePrices(defaults: readonly PriceRow[], edits: readonly PriceRow[]): PriceRow[] {
  const byKey = new Map(edits.map((r) => [rowKey(r), r]));
  const merged = defaults.map((d) => byKey.get(rowKey(d)) ?? d);
  const known = new Set(defaults.map(rowKey));
  return [...merged, ...edits.filter((r) => !known.has(rowKey(r)))];
}

const price = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The user's stored rows; anything malformed is dropped rather than trusted. */
export function parsePriceEdits(text: string | null): PriceRow[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text) as unknown;
    if (!Array.isArray(v)) return [];
    return v.flatMap((r: unknown) => {
      const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
      return typeof o.preset === 'string' && typeof o.model === 'string' && o.model.trim() !== '' && price(o.input) && price(o.output)
        ? [{ preset: o.preset, model: o.model.trim(), input: o.input as number, output: o.output as number }]
        : [];
    });
  } catch {
    return [];
  }
}

/** The user's rows with one set (or, with `null`, taken back to the default). */
export function withPriceEdit(edits: readonly PriceRow[], key: Pick<PriceRow, 'preset' | 'model'>, value: { input: number; output: number } | null): PriceRow[] {
  const rest = edits.filter((r) => rowKey(r) !== rowKey(key));
  return value ? [...rest, { preset: key.preset, model: key.model.trim(), ...value }] : rest;
}
