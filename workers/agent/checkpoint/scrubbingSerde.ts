/**
 * A serializer that scrubs secrets (the API key, base-URL credentials) out of every value the
 * checkpointer writes, including the `__error__` writes that hold an endpoint's error text.
 * Working on the serialized bytes covers every channel and every message shape at once.
 */
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';

export class ScrubbingSerde implements SerializerProtocol {
  readonly #inner: SerializerProtocol;
  readonly #scrub: (text: string) => string;

  constructor(scrub: (text: string) => string, inner: SerializerProtocol = new JsonPlusSerializer()) {
    this.#inner = inner;
    this.#scrub = scrub;
  }

  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    const [type, bytes] = await this.#inner.dumpsTyped(data);
    if (type !== 'json') return [type, bytes];
    const text = new TextDecoder().decode(bytes);
    const clean = this.#scrub(text);
    return [type, clean === text ? bytes : new TextEncoder().encode(clean)];
  }

  loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    return this.#inner.loadsTyped(type, data) as Promise<unknown>;
  }
}
