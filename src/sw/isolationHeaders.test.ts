import { describe, expect, it } from 'vitest';
import { withIsolationHeaders } from './isolationHeaders';

describe('withIsolationHeaders', () => {
  it('adds COOP, COEP and CORP and keeps status, type and body', async () => {
    const original = new Response('{"a":1}', { status: 201, statusText: 'Made', headers: { 'Content-Type': 'application/json', 'Cross-Origin-Embedder-Policy': 'unsafe-none' } });
    const wrapped = withIsolationHeaders(original);
    expect(wrapped.status).toBe(201);
    expect(wrapped.statusText).toBe('Made');
    expect(wrapped.headers.get('content-type')).toBe('application/json');
    expect(wrapped.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(wrapped.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(wrapped.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(await wrapped.json()).toEqual({ a: 1 });
  });

  it('keeps a 304 bodiless', () => {
    const wrapped = withIsolationHeaders(new Response(null, { status: 304 }));
    expect(wrapped.status).toBe(304);
    expect(wrapped.body).toBeNull();
  });

  it('returns an opaque response as it is, since it cannot be rebuilt', () => {
    const opaque = Response.error();
    expect(withIsolationHeaders(opaque)).toBe(opaque);
  });
});
