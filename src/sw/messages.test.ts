import { describe, expect, it } from 'vitest';
import { isPageMessage } from './messages';

describe('isPageMessage', () => {
  it('accepts the four requests and nothing else', () => {
    for (const type of ['skip-waiting', 'release', 'claim', 'version']) expect(isPageMessage({ type })).toBe(true);
    for (const bad of [null, 'skip-waiting', {}, { type: 'SKIP_WAITING' }, { type: 1 }]) expect(isPageMessage(bad)).toBe(false);
  });
});

describe('keep', () => {
  it('takes a list of URL strings, and nothing else or too many', () => {
    expect(isPageMessage({ type: 'keep', urls: ['https://me.github.io/dataseer/assets/index-a.js'] })).toBe(true);
    for (const bad of [{ type: 'keep' }, { type: 'keep', urls: 'x' }, { type: 'keep', urls: [1] }, { type: 'keep', urls: Array.from({ length: 501 }, () => 'u') }]) expect(isPageMessage(bad)).toBe(false);
  });
});
