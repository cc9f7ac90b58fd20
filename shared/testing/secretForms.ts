/**
 * Test-only: every form in which a stored key would be readable, to assert a store holds none.
 * Raw, URL-encoded, JSON-escaped, inside base64 (all three alignments, both alphabets), and as
 * the byte list JSON writes for a Uint8Array.
 */
import { base64Forms } from '../secrets';

export function secretForms(secret: string): string[] {
  const bytes = [...new TextEncoder().encode(secret)];
  return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), ...base64Forms(secret), bytes.join(','), bytes.join(', ')];
}

/** Everything stored, as text: strings as they are, bytes decoded as UTF-8 and as base64. */
export function storedText(value: unknown): string {
  const parts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') parts.push(v);
    else if (v instanceof Uint8Array || v instanceof ArrayBuffer) {
      const bytes = v instanceof Uint8Array ? v : new Uint8Array(v);
      parts.push(new TextDecoder().decode(bytes), Buffer.from(bytes).toString('base64'));
    } else if (Array.isArray(v)) {
      parts.push(JSON.stringify(v));
      v.forEach(walk);
    } else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => (parts.push(k), walk(x)));
    else parts.push(String(v));
  };
  walk(value);
  return parts.join('\n');
}

/** The forms of `secret` found in `text` (empty when none). */
export function leaks(text: string, secret: string): string[] {
  return secretForms(secret).filter((f) => text.includes(f));
}
