import { describe, expect, it } from 'vitest';
import { REDACTED, SecretScrubber, urlCredentials } from './secrets';

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
