import { describe, expect, it } from 'vitest';
import { Serial } from './duckdbEngine';

describe('Serial', () => {
  it('runs one job at a time, in order, and survives failures', async () => {
    const serial = new Serial();
    const log: string[] = [];
    const job = (name: string, ms: number, fail = false) => () =>
      new Promise<string>((resolve, reject) => {
        log.push(`start ${name}`);
        setTimeout(() => {
          log.push(`end ${name}`);
          if (fail) reject(new Error(name));
          else resolve(name);
        }, ms);
      });
    const a = serial.run(job('a', 20));
    const b = serial.run(job('b', 1, true));
    const c = serial.run(job('c', 1));
    await expect(a).resolves.toBe('a');
    await expect(b).rejects.toThrow('b');
    await expect(c).resolves.toBe('c');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
