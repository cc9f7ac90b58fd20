import { describe, expect, it } from 'vitest';
import { REDACTED, SecretScrubber, urlCredentials } from './secrets';
import { leaks } from './testing/secretForms';

describe('SecretScrubber', () => {
  it('redacts the key and URL credentials wherever they appear, in any encoding', () => {
    const s = new SecretScrubber();
    s.addEndpoint({ apiKey: 'sk-live-Zq8v3kWm+/x', baseUrl: 'https://alice:p%40ssw0rd!@gw.example/v1' });
    expect(urlCredentials('https://alice:p%40ssw0rd!@gw.example/v1')).toEqual(['alice', 'p@ssw0rd!']);
    expect(s.scrub('401: Incorrect API key provided: sk-live-Zq8v3kWm+/x.')).toBe(`401: Incorrect API key provided: ${REDACTED}.`);
    expect(s.scrub('?key=sk-live-Zq8v3kWm%2B%2Fx&pw=p%40ssw0rd!')).toBe(`?key=${REDACTED}&pw=${REDACTED}`);
    expect(s.scrubValue({ error: ['p@ssw0rd! was wrong'], n: 1 })).toEqual({ error: [`${REDACTED} was wrong`], n: 1 });
  });

  it('ignores empty and short placeholders', () => {
    const s = new SecretScrubber();
    s.addEndpoint({ apiKey: 'x', baseUrl: 'http://localhost:11434/v1' });
    s.add('not-needed');
    expect(s.scrub('x marks not-needed')).toBe('x marks not-needed');
  });
});

describe('SecretScrubber, in every stored form', () => {
  const KEY = 'sk-proj-Ab3+/dEf9_gH~';
  const s = new SecretScrubber();
  s.add(KEY);
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it('finds the key inside base64 at any alignment, in either alphabet', () => {
    for (const prefix of ['', 'x', 'xy', 'xyz', 'a longer prefix ']) {
      const encoded = b64(`${prefix}${KEY} and after`);
      expect(leaks(encoded, KEY), prefix).not.toEqual([]);
      expect(leaks(s.scrub(`data:text/plain;base64,${encoded}`), KEY), prefix).toEqual([]);
      const url = encoded.replace(/\+/g, '-').replace(/\//g, '_');
      expect(leaks(s.scrub(url), KEY), prefix).toEqual([]);
    }
  });

  it('redacts the JSON-escaped and URL-encoded forms, and masks byte lists and bytes in place', () => {
    const json = JSON.stringify({ args: JSON.stringify({ code: `print("${KEY}")` }), url: `https://x/?k=${encodeURIComponent(KEY)}` });
    expect(leaks(json, KEY).length).toBeGreaterThan(0);
    expect(leaks(s.scrub(json), KEY)).toEqual([]);
    // JSON.parse still reads it.
    expect(() => JSON.parse(s.scrub(json)) as unknown).not.toThrow();
    const bytes = new TextEncoder().encode(`ab${KEY}cd`);
    const list = JSON.stringify({ lc: 2, args: [[...bytes]] });
    const scrubbed = JSON.parse(s.scrub(list)) as { args: number[][] };
    expect(scrubbed.args[0]).toHaveLength(bytes.length);
    expect(leaks(new TextDecoder().decode(new Uint8Array(scrubbed.args[0] ?? [])), KEY)).toEqual([]);
    const masked = s.scrubBytes(bytes);
    expect(masked).toHaveLength(bytes.length);
    expect(new TextDecoder().decode(masked)).toBe(`ab${'*'.repeat(KEY.length)}cd`);
    expect(bytes).toEqual(new TextEncoder().encode(`ab${KEY}cd`));
    expect(s.scrubValue({ blob: bytes.buffer }).blob).not.toBe(bytes.buffer);
  });
});
