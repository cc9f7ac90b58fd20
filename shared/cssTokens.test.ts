import { describe, expect, it } from 'vitest';
import { cssLoads, safeStyle, tokenizeCss } from './cssTokens';

describe('tokenizeCss reads escapes as a browser does (CSS Syntax 3, §4.3.7)', () => {
  it('decodes hex and literal escapes in idents and functions', () => {
    expect(tokenizeCss('u\\72l(x)')).toEqual([{ type: 'url', value: 'x' }]);
    expect(tokenizeCss('u\\rl(x)')).toEqual([{ type: 'url', value: 'x' }]);
    expect(tokenizeCss('\\75 rl(x)')).toEqual([{ type: 'url', value: 'x' }]);
    expect(tokenizeCss('\\000075rl("x")')).toEqual([{ type: 'function', value: 'url' }, { type: 'string', value: 'x' }, { type: ')' }]);
    expect(tokenizeCss('color:red')).toEqual([{ type: 'ident', value: 'color' }, { type: 'colon' }, { type: 'ident', value: 'red' }]);
  });

  it('skips comments and normalises newlines', () => {
    expect(tokenizeCss('a/* x */b')).toEqual([{ type: 'ident', value: 'a' }, { type: 'ident', value: 'b' }]);
    expect(tokenizeCss('a\r\nb').map((t) => t.type)).toEqual(['ident', 'whitespace', 'ident']);
  });

  it('reads numbers, dimensions, percentages and hashes', () => {
    expect(tokenizeCss('12px 50% -1.5e2 #fff')).toEqual([
      { type: 'dimension', value: 12, text: '12', unit: 'px' },
      { type: 'whitespace' },
      { type: 'percentage', value: 50, text: '50' },
      { type: 'whitespace' },
      { type: 'number', value: -150, text: '-1.5e2' },
      { type: 'whitespace' },
      { type: 'hash', value: 'fff', id: true },
    ]);
  });
});

describe('cssLoads', () => {
  it.each([
    'url(http://h/x)',
    'u\\72l(http://h/x)',
    'u\\rl(http://h/x)',
    'x; background: URL( "http://h/x" )',
    'image-set("a.png" 1x)',
    '@import "http://h/x.css"',
    '\\40 import "x"',
    'U\\52L(x)',
  ])('sees a load in %s', (v) => {
    // `\40 import` is `@import` only as an ident's text, never an at-rule: not a load.
    expect(cssLoads(v)).toBe(v !== '\\40 import "x"');
  });

  it.each(['red', 'rgb(1, 2, 3)', 'Arial, "Open Sans", sans-serif', 'calc(1px + 2px)', 'see (notes)', 'ana@example.com (sales)'])('sees no load in %s', (v) => {
    expect(cssLoads(v)).toBe(false);
  });
});

describe('safeStyle keeps colour and type only, written back from tokens', () => {
  it('keeps the allowed properties in canonical form', () => {
    expect(safeStyle('color: Red; font-weight: bold')).toBe('color:red;font-weight:bold');
    expect(safeStyle('color:#FF0000;font-size:12px;font-style:italic;text-decoration:underline')).toBe('color:#ff0000;font-size:12px;font-style:italic;text-decoration:underline');
    expect(safeStyle('color: rgb(255, 0, 0)')).toBe('color:rgb(255, 0, 0)');
    expect(safeStyle('color: rgba(0 0 0 / 50%)')).toBe('color:rgba(0 0 0 / 50%)');
    expect(safeStyle('fill:blue;font-weight:700')).toBe('fill:blue;font-weight:700');
  });

  it('is stable: its output read again is the same', () => {
    for (const s of ['color: Red; font-weight: bold', 'color: rgb(255, 0, 0);font-size:1.5em', 'color: hsl(120deg 50% 50%)']) {
      expect(safeStyle(safeStyle(s))).toBe(safeStyle(s));
    }
  });

  it.each([
    ['cursor:u\\72l(http://h/c?d=ROWS),auto;background-image:u\\rl(http://h/b?d=ROWS)', ''],
    ['background:url(http://h/x)', ''],
    ['color:red;background-image:url(x)', 'color:red'],
    ['c\\6flor:red', 'color:red'],
    ['color:u\\72l(x)', ''],
    ['color:red !important', ''],
    ['color:var(--x)', ''],
    ['color:red;}body{background:url(x)', 'color:red'],
    ['font-size:calc(1px + 2px)', ''],
    ['font-family:x', ''],
    ['mask:url(#m)', ''],
    ['color:"red"', ''],
  ])('%s → %s', (input, expected) => {
    expect(safeStyle(input)).toBe(expected);
  });
});
