import { describe, expect, it } from 'vitest';
import { importIndex, networkMessage, onDemandPackages, packagesFor, wordClip } from './packages';

const lock = {
  packages: {
    pandas: { name: 'pandas', imports: ['pandas'] },
    'scikit-learn': { name: 'scikit-learn', imports: ['sklearn'] },
    'pandas-tests': { name: 'pandas-tests', imports: [] },
    numpy: { name: 'numpy', imports: ['numpy'] },
  },
};

describe('packages', () => {
  it('maps imports to packages and skips what is already importable', () => {
    const index = importIndex(lock);
    expect(packagesFor(['sklearn.linear_model', 'pandas', 'numpy', 'json'], index, new Set(['numpy']))).toEqual(['pandas', 'scikit-learn']);
  });

  it('lists on-demand packages without test bundles', () => {
    expect(onDemandPackages(lock)).toEqual(['numpy', 'pandas', 'scikit-learn']);
  });

  it('says which package needs the network', () => {
    expect(networkMessage(['pandas'], 'https://cdn/x/')).toMatch(/^pandas needs a network connection the first time/);
    expect(networkMessage(['numpy', 'pandas'], 'https://cdn/x/')).toMatch(/^numpy, pandas need a network/);
  });

  it('shortens a long failure detail at a word boundary, never mid-word', () => {
    const long = 'Failed to fetch pandas because the network is unreachable from this page and the package cache holds no copy of it either';
    const clipped = wordClip(long, 80);
    expect(clipped.length).toBeLessThanOrEqual(80);
    expect(clipped.endsWith('…')).toBe(true);
    expect(long.startsWith(clipped.slice(0, -1))).toBe(true);
    expect(long[clipped.length - 1]).toBe(' ');
    expect(wordClip('short', 80)).toBe('short');
  });
});
