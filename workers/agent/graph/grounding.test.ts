import { describe, expect, it } from 'vitest';
import { NumberIndex, checkGrounding, collectSourceNumbers, extractNumbers } from './grounding';

const raws = (text: string) => extractNumbers(text).map((n) => n.raw);
const values = (text: string) => extractNumbers(text).map((n) => n.value);

describe('extractNumbers', () => {
  it('reads integers, decimals, thousands separators and signs', () => {
    expect(values('The mean is 3700.66 g over 342 rows, total 1,234,567.5; change -12.5 and −0.75, +42')).toEqual([
      3700.66, 342, 1234567.5, -12.5, -0.75, 42,
    ]);
  });

  it('reads percents, scientific notation and scales', () => {
    const ns = extractNumbers('45% of 1.2e-5 vs 3.4E3; 45 percent; 12.5 %; 1.2M rows, 3k users, 2 billion, 1.5 million');
    expect(ns.map((n) => [n.raw, n.value])).toEqual([
      ['45%', 45],
      ['1.2e-5', 1.2e-5],
      ['3.4E3', 3400],
      ['45 percent', 45],
      ['12.5 %', 12.5],
      ['1.2M', 1.2e6],
      ['3k', 3000],
      ['2 billion', 2e9],
      ['1.5 million', 1.5e6],
    ]);
    expect(ns[0]?.percent).toBe(true);
    expect(ns[5]?.tolerance).toBeCloseTo(0.05e6);
  });

  it('records the precision the number was written at', () => {
    const [a, b, c, d] = extractNumbers('12.35 and 3,701 and 0.1 and 1.20e3');
    expect(a?.tolerance).toBeCloseTo(0.005);
    expect(b?.tolerance).toBeCloseTo(0.5);
    expect(c?.tolerance).toBeCloseTo(0.05);
    expect(d?.tolerance).toBeCloseTo(5);
  });

  it('widens integers after an approximation word to their trailing zeros', () => {
    const [plain, approx, tilde] = extractNumbers('exactly 3,700, about 3,700 and ~12000');
    expect(plain?.tolerance).toBe(0.5);
    expect(approx?.tolerance).toBe(50);
    expect(tilde?.tolerance).toBe(500);
  });

  it('skips dates, times and years after date words', () => {
    expect(raws('On 2024-01-31 at 12:30 (and 1/31/2024, 31.01.2024) we saw 512 events')).toEqual(['512']);
    expect(raws('Between Jan 5, 2024 and March 2019, 5 January 2024 and 3rd of May: 77.5 mm')).toEqual(['77.5']);
    expect(raws('in 2019 sales were 1,250; since 1990 the count is 4,321; between 1990 and 2000 it rose')).toEqual([
      '1,250',
      '4,321',
    ]);
    expect(raws('Q3 2024 revenue: 88.1, FY2023 was 70.2')).toEqual(['88.1', '70.2']);
    expect(raws('timestamps like 2024-03-01T10:15:00Z showed 250 errors')).toEqual(['250']);
  });

  it('skips code, identifiers, ordinals, list markers, bounds, confidence levels and small integers', () => {
    const answer = [
      'Here is the query `SELECT avg(x) FROM t LIMIT 100` and the code:',
      '```python',
      'result = df.head(50)',
      '```',
      '1. col2 and x86 and H2O and COVID-19 are names; the 3rd group',
      '2. p < 0.05 and n >= 30 are bounds; 95% CI; 99% confidence',
      '3. There are 3 species and the top 5 islands, but 27.3 is a claim.',
    ].join('\n');
    expect(raws(answer)).toEqual(['27.3']);
  });

  it('keeps glued units but not ordinal suffixes', () => {
    expect(raws('weights of 3700g, latency 125ms, the 21st item, and 12th place')).toEqual(['3700', '125']);
  });

  it('keeps a sentence-final number and a number in parentheses or tables', () => {
    expect(values('The median is 41.5. (n = 344)\n| a | 12.25 |')).toEqual([41.5, 344, 12.25]);
  });

  it('returns nothing for text without claims', () => {
    expect(extractNumbers('No numbers here.')).toEqual([]);
    expect(extractNumbers('')).toEqual([]);
  });
});

describe('collectSourceNumbers', () => {
  it('takes numbers from values, nested rows, keys, strings, bigints and typed arrays', () => {
    const nums = collectSourceNumbers([
      { columns: [{ name: 'mean', type: 'DOUBLE' }], rows: [[3700.6622, 12n]], row_count: 1 },
      { stdout: 'p-value: 4.2e-04\nTotal 1,234 rows\n', result: { '2019': 'x' } },
      new Float64Array([0.4512]),
    ]);
    for (const n of [3700.6622, 12, 1, 4.2e-4, 1234, 2019, 0.4512]) expect(nums).toContain(n);
  });

  it('survives cycles and non-finite values', () => {
    const a: Record<string, unknown> = { v: 5.5, bad: Number.NaN, inf: Infinity };
    a.self = a;
    expect(collectSourceNumbers([a])).toEqual([5.5]);
  });
});

describe('NumberIndex', () => {
  it('finds a value within tolerance by absolute value', () => {
    const idx = new NumberIndex([10, -3.5, 1e6]);
    expect(idx.size).toBe(3);
    expect(idx.has(3.5, 0)).toBe(true);
    expect(idx.has(-10.4, 0.5)).toBe(true);
    expect(idx.has(11, 0.5)).toBe(false);
    expect(new NumberIndex([]).has(1, 1)).toBe(false);
  });
});

describe('checkGrounding', () => {
  const sql = { columns: [{ name: 'species' }, { name: 'avg_mass' }], rows: [['Adelie', 3700.662251655629], ['Gentoo', 5076.016260162602]], row_count: 2 };

  it('accepts numbers that round from the outputs', () => {
    const r = checkGrounding('Adelie average 3700.66 g, Gentoo 5,076.0 g (about 5,100 g).', [sql]);
    expect(r.ungrounded).toEqual([]);
    expect(r.claimed).toHaveLength(3);
  });

  it('flags numbers that no output contains', () => {
    const r = checkGrounding('Adelie average 3712.4 g and Gentoo 5,076 g; the difference is 1,375.35 g.', [sql]);
    expect(r.ungrounded).toEqual(['3712.4', '1,375.35']);
  });

  it('respects the written precision: 12.35 matches 12.3456 but 12.36 does not', () => {
    expect(checkGrounding('value 12.35', [12.3456]).ungrounded).toEqual([]);
    expect(checkGrounding('value 12.36', [12.3456]).ungrounded).toEqual(['12.36']);
    expect(checkGrounding('value 12.3', [12.3456]).ungrounded).toEqual([]);
    expect(checkGrounding('value 12.4', [12.3456]).ungrounded).toEqual(['12.4']);
  });

  it('matches percents against fractions and against percent values', () => {
    expect(checkGrounding('45% of users', [{ rate: 0.4512 }]).ungrounded).toEqual([]);
    expect(checkGrounding('45.1% of users', [{ rate: 0.4512 }]).ungrounded).toEqual([]);
    expect(checkGrounding('45.2% of users', [{ rate: 0.4512 }]).ungrounded).toEqual(['45.2%']);
    expect(checkGrounding('32% vs 24%', [{ stdout: 'treatment 32.1%  control 23.9%' }]).ungrounded).toEqual([]);
    // a fraction written plainly does not match a percent-looking source unless equal
    expect(checkGrounding('a rate of 0.45', [45]).ungrounded).toEqual(['0.45']);
  });

  it('ignores signs written in words', () => {
    expect(checkGrounding('sales fell by 12.5 units', [{ change: -12.5 }]).ungrounded).toEqual([]);
  });

  it('matches scaled and scientific forms', () => {
    expect(checkGrounding('1.2M rows and p = 4.2e-4', [1234567, { stdout: 'p=0.00042' }]).ungrounded).toEqual([]);
    expect(checkGrounding('1.3M rows', [1234567]).ungrounded).toEqual(['1.3M']);
  });

  it('treats numbers of the question as grounded', () => {
    expect(checkGrounding('The top 20 cars average 31.25 mpg', [{ avg: 31.2499 }], ['Show the top 20 cars']).ungrounded).toEqual([]);
    expect(checkGrounding('The top 20 cars average 31.25 mpg', [{ avg: 31.2499 }]).ungrounded).toEqual(['20']);
  });

  it('reports each ungrounded number once and handles no outputs', () => {
    expect(checkGrounding('42.5 and again 42.5', []).ungrounded).toEqual(['42.5']);
    expect(checkGrounding('nothing to check', []).ungrounded).toEqual([]);
  });

  it('absorbs floating point error', () => {
    expect(checkGrounding('0.3', [0.1 + 0.2]).ungrounded).toEqual([]);
  });
});
