import { describe, expect, it } from 'vitest';
import { quoteIdent, quoteLiteral, readableIdent } from './sql';

describe('readableIdent', () => {
  it('leaves plain lower-case names bare', () => {
    expect(readableIdent('seattle_weather')).toBe('seattle_weather');
  });
  it('quotes reserved words, capitals, spaces and quotes', () => {
    expect(readableIdent('order')).toBe('"order"');
    expect(readableIdent('Body Mass (g)')).toBe('"Body Mass (g)"');
    expect(readableIdent('say "hi"')).toBe('"say ""hi"""');
    expect(readableIdent('2024_sales')).toBe('"2024_sales"');
  });
});

describe('quoteIdent and quoteLiteral', () => {
  it('always quote, doubling the quote character', () => {
    expect(quoteIdent('semi')).toBe('"semi"');
    expect(quoteIdent('a"b')).toBe('"a""b"');
    expect(quoteLiteral("it's")).toBe("'it''s'");
  });
});
