import { describe, expect, it } from 'vitest';
import { PythonPackages } from './pythonPackages';

describe('PythonPackages', () => {
  it('answers from the pushed list without asking the page', async () => {
    let asked = 0;
    const packages = new PythonPackages(async () => {
      asked++;
      return ['asked'];
    });
    packages.onEvent({ type: 'packages', loaded: ['numpy'] });
    expect(await packages.current()).toEqual(['numpy']);
    packages.onEvent({ type: 'stdout', runId: 'r', text: 'x' });
    packages.onEvent({ type: 'packages', loaded: ['numpy', 'pandas'] });
    expect(await packages.current()).toEqual(['numpy', 'pandas']);
    expect(asked).toBe(0);
  });

  it('asks once before anything was pushed, then keeps what it was told', async () => {
    let asked = 0;
    const packages = new PythonPackages(async () => {
      asked++;
      return ['micropip'];
    });
    expect(await packages.current()).toEqual(['micropip']);
    expect(await packages.current()).toEqual(['micropip']);
    expect(asked).toBe(1);
  });
});
