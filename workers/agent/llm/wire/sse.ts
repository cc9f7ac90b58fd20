/**
 * Server-sent events in and out, for rewriting a chat-completion stream on its way to the SDK.
 * Comment lines (OpenRouter's `: OPENROUTER PROCESSING` keep-alives) are dropped; `event:` names
 * are kept so an `event: error` still reaches the SDK as an error.
 */

export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits a byte stream into events (by blank lines, any line ending). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  const parse = (block: string): SseEvent | undefined => {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
    if (!data.length) return undefined;
    return { ...(event ? { event } : {}), data: data.join('\n') };
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      for (;;) {
        const m = /\r\n\r\n|\n\n|\r\r/.exec(buf);
        if (!m) break;
        const block = buf.slice(0, m.index);
        buf = buf.slice(m.index + m[0].length);
        const e = parse(block);
        if (e) yield e;
      }
    }
    buf += decoder.decode();
    const e = parse(buf);
    if (e) yield e;
  } finally {
    reader.releaseLock();
  }
}

export function sseText(e: SseEvent): string {
  const lines = e.data.split('\n').map((l) => `data: ${l}`);
  return `${e.event ? `event: ${e.event}\n` : ''}${lines.join('\n')}\n\n`;
}

/** A byte stream of the events an async generator yields. */
export function sseStream(events: AsyncIterable<SseEvent>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const it = events[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await it.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(sseText(value)));
      } catch (e) {
        controller.error(e);
      }
    },
    async cancel(reason) {
      await it.return?.(reason);
    },
  });
}
