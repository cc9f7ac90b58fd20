import { describe, expect, it } from 'vitest';
import { inlineHeight } from './chartSize';

describe("an answer's chart height", () => {
  it('grows with the width it has, up to a share of the window', () => {
    // 1280×800 with the work pane stepped aside: the conversation is ~870 px wide.
    expect(inlineHeight(866, 800)).toBe(480);
    expect(inlineHeight(866, 800)).toBeGreaterThanOrEqual(440);
    expect(inlineHeight(1000, 900)).toBe(540);
    expect(inlineHeight(2000, 1400)).toBe(620);
  });

  it('stays readable on a phone and before the card is measured', () => {
    expect(inlineHeight(360, 812)).toBe(320);
    expect(inlineHeight(0, 800)).toBe(320);
    expect(inlineHeight(Number.NaN, 800)).toBe(320);
    expect(inlineHeight(800, 300)).toBe(320);
  });
});
