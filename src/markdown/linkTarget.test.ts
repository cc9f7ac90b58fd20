import { describe, expect, it } from 'vitest';
import { linkTarget } from './linkTarget';

describe('linkTarget', () => {
  it('names the host a click would reach, port included', () => {
    expect(linkTarget('http://127.0.0.1:9/x?d=rows')).toEqual({ host: '127.0.0.1:9', href: 'http://127.0.0.1:9/x?d=rows' });
    expect(linkTarget('https://user:pw@evil.example.com/a')?.host).toBe('evil.example.com');
    expect(linkTarget('https://xn--80ak6aa92e.com/')?.host).toBe('xn--80ak6aa92e.com');
    expect(linkTarget('mailto:someone@example.org?body=rows')?.host).toBe('example.org');
  });

  it('opens nothing that is not a web or mail link', () => {
    expect(linkTarget('javascript:alert(1)')).toBeNull();
    expect(linkTarget('data:text/html,x')).toBeNull();
    expect(linkTarget('not a url')).toBeNull();
  });
});
