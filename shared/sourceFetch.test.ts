import { describe, expect, it } from 'vitest';
import { fetchSource, fileNameFromUrl } from './sourceFetch';

describe('fetchSource', () => {
  it('names the file from the URL', () => {
    expect(fileNameFromUrl('https://x.org/data/Seattle%20Weather.csv?raw=1')).toBe('Seattle Weather.csv');
    expect(fileNameFromUrl('https://x.org/')).toBe('download.csv');
  });
  it('reports progress from Content-Length', async () => {
    const body = 'a,b\n'.repeat(1000);
    const fractions: (number | undefined)[] = [];
    const fake: typeof fetch = async () => new Response(body, { headers: { 'content-length': String(body.length) } });
    const r = await fetchSource('https://x.org/t.csv', (f) => fractions.push(f), fake);
    expect(r.ok).toBe(true);
    if (r.ok) expect(await r.blob.text()).toBe(body);
    expect(fractions.at(-1)).toBe(1);
  });
  it('explains network/CORS failures and HTTP errors', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const r = await fetchSource('https://x.org/t.csv', () => {}, failing);
    expect(r).toMatchObject({ ok: false, fileName: 't.csv' });
    if (!r.ok) expect(r.message).toMatch(/CORS/);
    const notFound: typeof fetch = async () => new Response('no', { status: 404, statusText: 'Not Found' });
    const r2 = await fetchSource('https://x.org/t.csv', () => {}, notFound);
    if (!r2.ok) expect(r2.message).toBe('Could not download https://x.org/t.csv: HTTP 404 Not Found');
    else throw new Error('expected failure');
    expect((await fetchSource('not a url', () => {}, notFound)).ok).toBe(false);
  });
  it('refuses an HTML page served where a data file was expected', async () => {
    const spa: typeof fetch = async () => new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const r = await fetchSource('https://x.org/missing.csv', () => {}, spa);
    expect(r).toMatchObject({ ok: false, fileName: 'missing.csv' });
    if (!r.ok) expect(r.message).toMatch(/web page/);
  });
});
