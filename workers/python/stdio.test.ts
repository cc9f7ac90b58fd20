import { describe, expect, it } from 'vitest';
import { OutputStream } from './stdio';

describe('OutputStream', () => {
  it('sends a line after a quiet spell at once and batches a burst', () => {
    let t = 0;
    const sent: string[] = [];
    const s = new OutputStream({ emit: (x) => sent.push(x), now: () => t, maxDelayMs: 50 });
    s.writeLine('first');
    expect(sent).toEqual(['first\n']);
    t = 10;
    s.writeLine('a');
    t = 20;
    s.writeLine('b');
    expect(sent).toEqual(['first\n']);
    t = 60;
    s.writeLine('c');
    expect(sent).toEqual(['first\n', 'a\nb\nc\n']);
    t = 61;
    s.writeLine('d');
    s.flush();
    expect(sent).toEqual(['first\n', 'a\nb\nc\n', 'd\n']);
  });

  it('cuts output past the limit and says so once', () => {
    const sent: string[] = [];
    const s = new OutputStream({ emit: (x) => sent.push(x), now: () => 0, limit: 10 });
    for (let i = 0; i < 100; i++) s.writeLine('12345');
    s.flush();
    const all = sent.join('');
    expect(all.startsWith('12345\n1234')).toBe(true);
    expect(all.match(/output cut/g)?.length).toBe(1);
  });
});
