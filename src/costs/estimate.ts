/**
 * What a gauntlet run will cost before it starts: items × tokens per item × price. Tokens per
 * item are the average of the items already run with this model (any model if none), or a
 * typical figure until there is one.
 */
import { costOf, priceFor, type PriceRow } from './prices';

/**
 * A guess for an item never measured: an agent item sends ~4 requests (profile or query, answer,
 * validation) that each carry the system prompt with the datasets (~3,000 tokens), and gets a
 * few hundred tokens back. Replaced by measured averages after the first run.
 */
export const TYPICAL_ITEM_TOKENS = { input: 12_000, output: 800 } as const;

export interface MeasuredItem {
  tokens_in: number;
  tokens_out: number;
}

export interface GauntletEstimate {
  items: number;
  perItem: { input: number; output: number };
  /** Where tokens per item came from. */
  basis: 'this model' | 'other models' | 'typical';
  input: number;
  output: number;
  /** USD; null when the price table has no price for the model. */
  cost: number | null;
  local: boolean;
}

export function gauntletEstimate(
  items: number,
  runs: readonly { model: string; items: readonly MeasuredItem[] }[],
  endpoint: { baseUrl: string; model: string },
  table: readonly PriceRow[],
): GauntletEstimate {
  const mean = (list: readonly MeasuredItem[]) => ({
    input: list.reduce((s, i) => s + i.tokens_in, 0) / list.length,
    output: list.reduce((s, i) => s + i.tokens_out, 0) / list.length,
  });
  // An item the endpoint refused reports no tokens; it says nothing about an item's size.
  const measured = (list: readonly MeasuredItem[]) => list.filter((i) => i.tokens_in > 0);
  const same = measured(runs.filter((r) => r.model === endpoint.model).flatMap((r) => r.items));
  const any = measured(runs.flatMap((r) => r.items));
  const [perItem, basis]: [{ input: number; output: number }, GauntletEstimate['basis']] =
    same.length > 0 ? [mean(same), 'this model'] : any.length > 0 ? [mean(any), 'other models'] : [{ ...TYPICAL_ITEM_TOKENS }, 'typical'];
  const input = Math.round(items * perItem.input);
  const output = Math.round(items * perItem.output);
  const price = priceFor(table, endpoint.baseUrl, endpoint.model);
  return { items, perItem, basis, input, output, cost: price ? costOf(input, output, price) : null, local: price?.local === true };
}
