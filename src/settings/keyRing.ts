/**
 * Keys bound to the origin they were entered for. A key typed for `https://api.openai.com` is
 * never sent to any other origin: changing the base URL (typed or by preset) shows that origin's
 * own key, or none, until the user enters one or confirms sending another host's key there.
 */

/** Keys by origin (`scheme://host:port`), as `new URL(..).origin` spells it. */
export type KeyRing = Readonly<Record<string, string>>;

/** The origin a base URL sends to, or null when it is not an http(s) URL (yet). */
export function originOf(baseUrl: string): string | null {
  try {
    const u = new URL(baseUrl.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** What the user reads for an origin: its host (with a port when it has one). */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** The key to send to `baseUrl`: only one entered for its own origin, else ''. */
export function keyFor(ring: KeyRing, baseUrl: string): string {
  const origin = originOf(baseUrl);
  if (origin === null) return '';
  return Object.hasOwn(ring, origin) ? (ring[origin] ?? '') : '';
}

/** A new ring with `key` bound to `baseUrl`'s origin (an empty key removes the entry). */
export function withKey(ring: KeyRing, baseUrl: string, key: string): KeyRing {
  const origin = originOf(baseUrl);
  if (origin === null) return ring;
  const next: Record<string, string> = { ...ring };
  const trimmed = key.trim();
  if (trimmed === '') delete next[origin];
  else next[origin] = trimmed;
  return next;
}

/** The ring from stored JSON: only string keys under origins that parse back to themselves. */
export function parseRing(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [origin, key] of Object.entries(value as Record<string, unknown>)) {
    if (typeof key === 'string' && key.trim() !== '' && originOf(origin) === origin) out[origin] = key.trim();
  }
  return out;
}

/** Every key in the ring (for scrubbing stores and exports of any of them). */
export function allKeys(ring: KeyRing): string[] {
  return [...new Set(Object.values(ring))];
}
