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

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretScrubber {
  #secrets = new Set<string>();
  #pattern: RegExp | null = null;

  /** Registers the key and the base URL's credentials of an endpoint in use. */
  addEndpoint(settings: { apiKey?: string; baseUrl?: string }): void {
    if (settings.apiKey) this.add(settings.apiKey);
    if (settings.baseUrl) for (const c of urlCredentials(settings.baseUrl)) this.add(c);
  }

  add(secret: string): void {
    const s = secret.trim();
    if (s.length < MIN_SECRET_LENGTH || s === 'not-needed' || this.#secrets.has(s)) return;
    this.#secrets.add(s);
    // The secret as written, and as it appears URL-encoded or JSON-escaped.
    const forms = new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]);
    for (const f of [...this.#secrets].flatMap((x) => [x, encodeURIComponent(x), JSON.stringify(x).slice(1, -1)])) forms.add(f);
    this.#pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
  }

  scrub(text: string): string {
    if (!this.#pattern || text.length === 0) return text;
    return text.replace(this.#pattern, REDACTED);
  }

  /** The same for a value about to be stored: every string inside it. */
  scrubValue<T>(value: T): T {
    if (!this.#pattern) return value;
    if (typeof value === 'string') return this.scrub(value) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.scrubValue(v)) as T;
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrubValue(v)])) as T;
    }
    return value;
  }
}
