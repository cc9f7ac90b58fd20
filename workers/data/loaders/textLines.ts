/**
 * Lines of a text Blob, decoded as UTF-8 and read chunk by chunk so a large file is never one
 * string. Each line comes with its 1-based number and how many bytes have been read so far.
 */
export interface TextLine {
  text: string;
  number: number;
  bytesRead: number;
}

export async function* textLines(source: Blob): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder('utf-8');
  const reader = source.stream().getReader();
  let rest = '';
  let number = 0;
  let bytesRead = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytesRead += value.byteLength;
      const lines = (rest + decoder.decode(value, { stream: true })).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) yield { text: stripCR(line), number: ++number, bytesRead };
    }
    rest += decoder.decode();
    if (rest !== '') yield { text: stripCR(rest), number: ++number, bytesRead };
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function stripCR(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
