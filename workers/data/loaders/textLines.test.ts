import { describe, expect, it } from 'vitest';
import { textLines } from './textLines';

async function all(blob: Blob) {
  const out = [];
  for await (const line of textLines(blob)) out.push(line);
  return out;
}

describe('textLines', () => {
  it('splits LF and CRLF lines, numbering them, with no trailing empty line', async () => {
    const lines = await all(new Blob(['a\r\nb\n\nc\n']));
    expect(lines.map((l) => [l.number, l.text])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, ''],
      [4, 'c'],
    ]);
  });

  it('keeps multi-byte characters whole across chunk boundaries', async () => {
    // Far more than one stream chunk; a 3-byte char straddles some chunk edge.
    const line = '€☕é'.repeat(10_000);
    const text = Array.from({ length: 20 }, (_, i) => `${i}:${line}`).join('\n');
    const lines = await all(new Blob([text]));
    expect(lines.map((l) => l.text)).toEqual(text.split('\n'));
    expect(lines.at(-1)!.bytesRead).toBe(new TextEncoder().encode(text).length);
  });
});
