import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeRegExp, plural, pluralWord } from './text';

describe('text', () => {
  it('escapes every character that can end an element or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('escapes a RegExp so it matches the text literally', () => {
    const tricky = 'a.b*c+(d)?[e]{f}|g^h$i\\j';
    expect(new RegExp(`^${escapeRegExp(tricky)}$`).test(tricky)).toBe(true);
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });

  it('counts in words', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(1234, 'batch', 'batches')).toBe('1,234 batches');
    expect(pluralWord(2, 'is', 'are')).toBe('are');
  });
});
