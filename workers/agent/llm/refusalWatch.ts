/**
 * A model's refusal to give a structured answer, read off the wire. OpenAI's Structured Outputs
 * answer a request they will not fulfil with `choices[0].message.refusal` (a string) and a null
 * `content` — in a stream, as `choices[0].delta.refusal` pieces
 * (https://platform.openai.com/docs/guides/structured-outputs/refusals; the field on both objects:
 * https://github.com/MacPaw/OpenAI/issues/249). LangChain's chat-completions converter drops the
 * field, so the ladder saw an empty answer, tried every other way of asking, and ended in a parser
 * error. This fetch wrapper reads a copy of each completion and remembers the refusal, so the
 * caller can say "the model refused: …" and stop asking.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The refusal text in a completion or a stream chunk, if any. */
export function refusalIn(body: unknown, part: 'message' | 'delta'): string | undefined {
  if (!isObject(body) || !Array.isArray(body.choices)) return undefined;
  const first: unknown = body.choices[0];
  const m = isObject(first) ? first[part] : undefined;
  return isObject(m) && typeof m.refusal === 'string' && m.refusal !== '' ? m.refusal : undefined;
}

/** The refusal in a server-sent event stream's text (the `data:` lines' `delta.refusal` pieces). */
export function refusalInStream(text: string): string | undefined {
  let out = '';
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('data:')) continue;
    const data = t.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      out += refusalIn(JSON.parse(data), 'delta') ?? '';
    } catch {
      // Not JSON: not ours to judge.
    }
  }
  return out || undefined;
}

export interface RefusalWatch {
  fetch: typeof fetch;
  /** The last completion's refusal, if it was one, once the copies being read are read. */
  last(): Promise<string | undefined>;
}

export function watchRefusals(inner: typeof fetch): RefusalWatch {
  let last: string | undefined;
  const reading = new Set<Promise<void>>();
  const watched: typeof fetch = async (input, init) => {
    const res = await inner(input, init);
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok || !(type.includes('json') || type.includes('event-stream'))) return res;
    // A copy is read beside the caller's: the caller's stream is never held back.
    const copy = res.clone();
    const p = copy
      .text()
      .then((text) => {
        if (type.includes('event-stream')) last = refusalInStream(text);
        else {
          try {
            last = refusalIn(JSON.parse(text), 'message');
          } catch {
            last = undefined;
          }
        }
      })
      .catch(() => undefined)
      .finally(() => reading.delete(p));
    reading.add(p);
    return res;
  };
  return {
    fetch: watched,
    last: async () => {
      await Promise.all([...reading]);
      return last;
    },
  };
}
