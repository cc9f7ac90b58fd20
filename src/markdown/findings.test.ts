import { describe, expect, it, test } from 'vitest';
import { keyFindings, proseOf } from './findings';

describe('key findings', () => {
  const answer = [
    '## Body mass by species',
    '',
    'Gentoo penguins are the heaviest at **5076.02 g** on average. Adelie penguins weigh 3700.66 g and Chinstrap 3733.09 g.',
    '',
    '- The sample has 342 birds with a recorded mass.',
    '- Males outweigh females in every species.',
    '- About 9876 of them are happy.',
    '',
    '```sql',
    'SELECT species, avg(mass) FROM penguins GROUP BY 1 LIMIT 10',
    '```',
    '',
    '$$\\bar{x} = 42$$',
  ].join('\n');

  test('statements with grounded figures, without code, math or markup', () => {
    expect(keyFindings(answer, ['9876'])).toEqual([
      'Gentoo penguins are the heaviest at 5076.02 g on average.',
      'Adelie penguins weigh 3700.66 g and Chinstrap 3733.09 g.',
      'The sample has 342 birds with a recorded mass.',
    ]);
  });

  test('a statement with an ungrounded figure is left out', () => {
    expect(keyFindings(answer, ['342', '9876'])).not.toContain('The sample has 342 birds with a recorded mass.');
  });

  test('a one-line answer is its own finding', () => {
    expect(keyFindings('Adelie penguins weigh 3700.66 g on average.', [])).toEqual([]);
  });

  test('at most `max`, no duplicates', () => {
    const many = Array.from({ length: 8 }, (_, i) => `- Item ${i + 1} is ${i * 10}.`).join('\n');
    expect(keyFindings(`${many}\n- Item 1 is 0.`, [], 5)).toHaveLength(5);
  });

  test('prose keeps decimals inside a sentence', () => {
    expect(proseOf('The mean is 3.5 kg. Next sentence 2.')).toEqual(['The mean is 3.5 kg.', 'Next sentence 2.']);
  });
});

describe('key findings ignore markup', () => {
  test('raw HTML lines and tags are not findings', () => {
    const answer = '<div style="inset:0">cover 7</div>\n\nThere are <b>344</b> penguins.\n\nOf them 152 are Adelie.\n\n<img src=x onerror="window.__pwned=2">';
    expect(keyFindings(answer, [])).toEqual(['There are 344 penguins.', 'Of them 152 are Adelie.']);
  });
});

describe('key findings of a very long answer', () => {
  it('come from its start, and a statement past the scanned part is not among them', () => {
    const early = 'The mean is 42.5 across all rows.';
    const filler = Array.from({ length: 3000 }, () => 'This line says nothing of note here.').join('\n');
    const late = 'The median is 17.25 in the last part.';
    const found = keyFindings(`${early}\n${filler}\n${late}`, [], 100);
    expect(found[0]).toBe(early);
    expect(found).not.toContain(late);
  });
});
