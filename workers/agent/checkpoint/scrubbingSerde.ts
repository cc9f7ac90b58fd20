/**
 * A serializer that scrubs secrets (the API key, base-URL credentials) out of every value the
 * checkpointer writes, including the `__error__` writes that hold an endpoint's error text.
 * Working on the serialized bytes covers every channel and every message shape at once.
 */
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';

/** What scrubs: text (JSON), and optionally raw bytes (a value the serializer keeps as bytes). */
export interface Scrub {
  scrub(text: string): string;
  scrubBytes?(bytes: Uint8Array): Uint8Array;
}

export class ScrubbingSerde implements SerializerProtocol {
  readonly #inner: SerializerProtocol;
  readonly #scrub: (text: string) => string;
  readonly #scrubBytes: (bytes: Uint8Array) => Uint8Array;

  constructor(scrub: ((text: string) => string) | Scrub, inner: SerializerProtocol = new JsonPlusSerializer()) {
    this.#inner = inner;
    if (typeof scrub === 'function') {
      this.#scrub = scrub;
      this.#scrubBytes = (b) => b;
    } else {
      this.#scrub = (t) => scrub.scrub(t);
      this.#scrubBytes = (b) => scrub.scrubBytes?.(b) ?? b;
    }
  }

  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    const [type, bytes] = await this.#inner.dumpsTyped(data);
    // Bytes are masked in place (same length), so a binary value still reads back.
    if (type !== 'json') return [type, this.#scrubBytes(bytes)];
    const text = new TextDecoder().decode(bytes);
    const clean = this.#scrub(text);
    return [type, clean === text ? bytes : new TextEncoder().encode(clean)];
  }

  loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    return this.#inner.loadsTyped(type, data) as Promise<unknown>;
  }
}
