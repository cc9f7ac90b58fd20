import { escapeRegExp } from './text';
/**
 * Keeps secrets out of everything that is stored or exported: the API key and any credentials in
 * the base URL are replaced by a marker in error texts, log entries, checkpoint writes and
 * exports. An endpoint that echoes the key in an error body (some gateways do) must not get it
 * written to IndexedDB in the clear.
 */

export const REDACTED = '[redacted]';

/** Shorter strings would match ordinary text; real keys are far longer. */
const MIN_SECRET_LENGTH = 8;

/** The user name and password of `https://user:pass@host/…`, if any. */
export function urlCredentials(baseUrl: string): string[] {
  try {
    const u = new URL(baseUrl.trim());
    return [decodeURIComponent(u.username), decodeURIComponent(u.password)].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * The secret as it appears inside base64 text, wherever it starts in the encoded bytes: for each
 * of the three byte alignments, the run of characters that depend only on the secret's bytes.
 * Both the standard and the URL-safe alphabets.
 */
export function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const out: string[] = [];
  for (let align = 0; align < 3; align++) {
    const padded = new Uint8Array(align + bytes.length);
    padded.set(bytes, align);
    const b64 = toBase64(padded);
    const core = b64.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6));
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(out)];
}

/** The forms a secret takes in stored text that are replaced by the marker. */
function textForms(s: string): string[] {
  return [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1), ...base64Forms(s)];
}

/** The secret's bytes as JSON writes a byte array (`[115,107,…]`): LangGraph's serializer does. */
function byteListForm(s: string): string {
  return [...new TextEncoder().encode(s)].join(',');
}

/** Where `needle` occurs in `hay` (non-overlapping). */
function indexesOf(hay: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    out.push(i);
    i += needle.length - 1;
  }
  return out;
}

/** Bytes masked in place of a secret: same length, so binary formats (Arrow IPC) stay readable. */
const MASK_BYTE = 0x2a;

export class SecretScrubber {
  #secrets = new Set<string>();
  #pattern: RegExp | null = null;
  #bytePattern: RegExp | null = null;
  #encoded: Uint8Array[] = [];

  /** Registers the key and the base URL's credentials of an endpoint in use. */
  addEndpoint(settings: { apiKey?: string; baseUrl?: string }): void {
    if (settings.apiKey) this.add(settings.apiKey);
    if (settings.baseUrl) for (const c of urlCredentials(settings.baseUrl)) this.add(c);
  }

  add(secret: string): void {
    const s = secret.trim();
    if (s.length < MIN_SECRET_LENGTH || s === 'not-needed' || this.#secrets.has(s)) return;
    this.#secrets.add(s);
    // The secret as written, URL-encoded, JSON-escaped and inside base64.
    const forms = new Set([...this.#secrets].flatMap(textForms));
    this.#pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
    // A byte list must stay a byte list (the serializer reads it back): masked, not replaced.
    this.#bytePattern = new RegExp(`(?<![0-9])(?:${[...this.#secrets].map((x) => byteListForm(x)).join('|')})(?![0-9])`, 'g');
    this.#encoded = [...this.#secrets].map((x) => new TextEncoder().encode(x));
  }

  /** Whether any secret is registered. */
  get active(): boolean {
    return this.#pattern !== null;
  }

  scrub(text: string): string {
    if (!this.#pattern || text.length === 0) return text;
    const out = text.replace(this.#pattern, REDACTED);
    return this.#bytePattern ? out.replace(this.#bytePattern, (m) => m.split(',').map(() => String(MASK_BYTE)).join(',')) : out;
  }

  /** A copy of `bytes` with every secret masked (same length); `bytes` itself when none occurs. */
  scrubBytes(bytes: Uint8Array): Uint8Array {
    let out = bytes;
    for (const needle of this.#encoded) {
      for (const at of indexesOf(out, needle)) {
        if (out === bytes) out = bytes.slice();
        out.fill(MASK_BYTE, at, at + needle.length);
      }
    }
    return out;
  }

  /** The same for a value about to be stored: every string inside it. */
  scrubValue<T>(value: T): T {
    if (!this.#pattern) return value;
    if (typeof value === 'string') return this.scrub(value) as T;
    if (value instanceof Uint8Array) return this.scrubBytes(value) as T;
    if (value instanceof ArrayBuffer) return this.scrubBytes(new Uint8Array(value)).buffer as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.scrubValue(v)) as T;
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrubValue(v)])) as T;
    }
    return value;
  }
}
