import { describe, expect, it } from 'vitest';
import { codesToText, joinsToText, textToCodes, textToJoins, textToList } from './dictionaryText';

describe('dictionary editor text', () => {
  it('round-trips codes, placeholders and join keys', () => {
    const codes = [{ code: '1', meaning: 'North' }, { code: 'x', meaning: '' }];
    expect(textToCodes(codesToText(codes))).toEqual(codes);
    expect(textToCodes(' 2 = a = b ; ;=z')).toEqual([{ code: '2', meaning: 'a = b' }]);
    expect(textToList('., -9 , N/A,')).toEqual(['.', '-9', 'N/A']);
    const joins = [{ column: 'cust_no', other_dataset: 'customers', other_column: 'customer_id' }];
    expect(textToJoins(joinsToText(joins))).toEqual({ joins, bad: [] });
    expect(textToJoins('a = b\nc = d.e')).toEqual({ joins: [{ column: 'c', other_dataset: 'd', other_column: 'e' }], bad: ['a = b'] });
  });
});
