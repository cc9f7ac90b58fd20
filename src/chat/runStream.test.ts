import { describe, expect, it } from 'vitest';
import { RunStream } from './runStream';

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of stream) out.push(x);
  return out;
}

describe('RunStream', () => {
  it('yields what was pushed before and after reading began, then ends', async () => {
    const s = new RunStream<number>();
    s.push(1);
    const read = collect(s);
    s.push(2);
    await Promise.resolve();
    s.push(3);
    s.end();
    s.push(4);
    expect(await read).toEqual([1, 2, 3]);
  });

  it('delivers what was buffered, then throws the failure', async () => {
    const s = new RunStream<string>();
    const seen: string[] = [];
    s.push('a');
    s.fail(new Error('the agent stopped'));
    await expect(
      (async () => {
        for await (const x of s) seen.push(x);
      })(),
    ).rejects.toThrow('the agent stopped');
    expect(seen).toEqual(['a']);
  });
});
