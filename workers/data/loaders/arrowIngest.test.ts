import { describe, expect, it } from 'vitest';
import { readAhead } from './arrowIngest';

describe('readAhead', () => {
  it('yields every item in order and asks for the next one while the current is being used', async () => {
    const log: string[] = [];
    async function* source() {
      for (let i = 1; i <= 3; i++) {
        log.push(`decode ${i}`);
        yield i;
      }
    }
    const seen: number[] = [];
    for await (const n of readAhead(source())) {
      log.push(`insert ${n}`);
      seen.push(n);
    }
    expect(seen).toEqual([1, 2, 3]);
    // Batch 2 is decoded before batch 1 is inserted: the two overlap.
    expect(log.indexOf('decode 2')).toBeLessThan(log.indexOf('insert 1'));
  });

  it('closes the source when the consumer stops early, after its pending pull', async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 1; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const n of readAhead(source())) if (n === 2) break;
    expect(closed).toBe(true);
  });

  it('passes a reader error on, and one raised by a pull nobody waits for is not left unhandled', async () => {
    async function* failing() {
      yield 1;
      throw new Error('corrupt page');
    }
    await expect(
      (async () => {
        for await (const _ of readAhead(failing())) void _;
      })(),
    ).rejects.toThrow('corrupt page');
    // The consumer fails on the first item while the failing pull is pending.
    await expect(
      (async () => {
        for await (const _ of readAhead(failing())) throw new Error('insert failed');
      })(),
    ).rejects.toThrow('insert failed');
  });
});
