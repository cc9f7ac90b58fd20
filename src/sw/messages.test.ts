import { describe, expect, it } from 'vitest';
import { isPageMessage } from './messages';

describe('isPageMessage', () => {
  it('accepts the four requests and nothing else', () => {
    for (const type of ['skip-waiting', 'release', 'claim', 'version']) expect(isPageMessage({ type })).toBe(true);
    for (const bad of [null, 'skip-waiting', {}, { type: 'SKIP_WAITING' }, { type: 1 }]) expect(isPageMessage(bad)).toBe(false);
  });
});
