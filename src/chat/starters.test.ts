import { describe, expect, it } from 'vitest';
import { STARTERS, startersFor } from './starters';

describe('starter questions', () => {
  it('offers three for each sample and none for other datasets', () => {
    for (const name of ['penguins', 'seattle_weather', 'cars']) expect(STARTERS[name]).toHaveLength(3);
    expect(startersFor(['my_sales'])).toEqual([]);
    expect(startersFor(['my_sales', 'cars']).map((s) => s.dataset)).toEqual(['cars', 'cars', 'cars']);
  });

  it('caps how many it offers when several samples are loaded', () => {
    expect(startersFor(['penguins', 'cars', 'seattle_weather'], 6)).toHaveLength(6);
  });
});
