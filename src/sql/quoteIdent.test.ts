import { describe, expect, it } from 'vitest';
import { quoteIdent } from './quoteIdent';

describe('quoteIdent', () => {
  it('leaves plain lower-case names bare', () => {
    expect(quoteIdent('seattle_weather')).toBe('seattle_weather');
  });
  it('quotes reserved words, capitals, spaces and quotes', () => {
    expect(quoteIdent('order')).toBe('"order"');
    expect(quoteIdent('Body Mass (g)')).toBe('"Body Mass (g)"');
    expect(quoteIdent('say "hi"')).toBe('"say ""hi"""');
    expect(quoteIdent('2024_sales')).toBe('"2024_sales"');
  });
});
