import { describe, expect, it } from 'vitest';
import { afterControllerChange, shouldOfferUpdate } from './updateDecision';

describe('shouldOfferUpdate', () => {
  it('offers a waiting worker to a page an older worker controls', () => {
    expect(shouldOfferUpdate({ waiting: true, controlled: true })).toBe(true);
  });

  it('never offers on the first install, when nothing controlled the page yet', () => {
    expect(shouldOfferUpdate({ waiting: true, controlled: false })).toBe(false);
  });

  it('offers nothing when no worker waits', () => {
    expect(shouldOfferUpdate({ waiting: false, controlled: true })).toBe(false);
    expect(shouldOfferUpdate({ waiting: false, controlled: false })).toBe(false);
  });
});

describe('afterControllerChange', () => {
  it('reloads only after the user accepted in this tab', () => {
    expect(afterControllerChange({ accepted: true, wasControlled: true })).toBe('reload');
  });

  it('offers a reload, never forces one, when another tab activated the new version', () => {
    expect(afterControllerChange({ accepted: false, wasControlled: true })).toBe('offer');
  });

  it('leaves the first take-over to the isolation step', () => {
    expect(afterControllerChange({ accepted: false, wasControlled: false })).toBe('ignore');
  });
});
