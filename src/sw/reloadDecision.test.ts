import { describe, expect, it } from 'vitest';
import { nextIsolationStep, type IsolationFacts } from './reloadDecision';

const facts = (over: Partial<IsolationFacts>): IsolationFacts => ({ isolated: false, serviceWorkerAvailable: true, controlled: false, alreadyReloaded: false, ...over });

describe('nextIsolationStep', () => {
  it('does nothing once isolated, whatever else is true', () => {
    expect(nextIsolationStep(facts({ isolated: true, alreadyReloaded: true }))).toBe('isolated');
    expect(nextIsolationStep(facts({ isolated: true, serviceWorkerAvailable: false }))).toBe('isolated');
  });

  it('runs without isolation where there is no service worker', () => {
    expect(nextIsolationStep(facts({ serviceWorkerAvailable: false }))).toBe('unsupported');
  });

  it('reloads once the worker controls the page, or waits for it to', () => {
    expect(nextIsolationStep(facts({ controlled: true }))).toBe('reload');
    expect(nextIsolationStep(facts({ controlled: false }))).toBe('wait-for-control');
  });

  it('never reloads twice in a tab, so a browser that ignores the headers cannot loop', () => {
    expect(nextIsolationStep(facts({ controlled: true, alreadyReloaded: true }))).toBe('give-up');
    expect(nextIsolationStep(facts({ controlled: false, alreadyReloaded: true }))).toBe('give-up');
  });
});
