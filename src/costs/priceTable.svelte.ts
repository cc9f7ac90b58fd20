import { DEFAULT_PRICES, mergePrices, parsePriceEdits, withPriceEdit, type PriceRow } from './prices';

/**
 * The price table in use: the defaults with the user's edits, kept in this browser
 * (localStorage). Applies at once everywhere costs are shown.
 */

export const PRICES_KEY = 'dataseer:prices';

function stored(): PriceRow[] {
  try {
    return parsePriceEdits(globalThis.localStorage?.getItem(PRICES_KEY) ?? null);
  } catch {
    return [];
  }
}

class PriceTable {
  /** Only the user's rows are stored, so new defaults reach everyone who did not edit a row. */
  edits = $state<PriceRow[]>(stored());
  readonly rows = $derived(mergePrices(DEFAULT_PRICES, this.edits));

  /** Sets the price of a preset's model; `null` takes it back to the default (or removes an added row). */
  set(key: Pick<PriceRow, 'preset' | 'model'>, value: { input: number; output: number } | null): void {
    this.edits = withPriceEdit(this.edits, key, value);
    try {
      if (this.edits.length) globalThis.localStorage?.setItem(PRICES_KEY, JSON.stringify(this.edits));
      else globalThis.localStorage?.removeItem(PRICES_KEY);
    } catch {
      // Kept for this tab only.
    }
  }

  isEdited(key: Pick<PriceRow, 'preset' | 'model'>): boolean {
    const k = key.model.trim().toLowerCase();
    return this.edits.some((r) => r.preset === key.preset && r.model.toLowerCase() === k);
  }
}

export const priceTable = new PriceTable();
