import { describe, expect, it } from 'vitest';
import { firstSyntaxError, jsonErrorAt } from './jsonErrors';

function errorOf(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error('expected a parse error');
}

describe('firstSyntaxError', () => {
  it('finds the first offending character', () => {
    expect(firstSyntaxError('{"a": 1, "b": ]}')).toBe(14);
    expect(firstSyntaxError('[1, 2,]')).toBe(6);
    expect(firstSyntaxError('not json')).toBe(0);
    expect(firstSyntaxError('{"a": "x\ny"}')).toBe(8);
    expect(firstSyntaxError('[1] x')).toBe(4);
    expect(firstSyntaxError('[{"a": 1}')).toBe(9);
    expect(firstSyntaxError('{"a": [1, {"b": -1.5e3}], "c": "\\u00e9"}')).toBeUndefined();
  });
});

describe('jsonErrorAt', () => {
  it('names line and column whatever the engine says', () => {
    const text = '[\n  {"a": 1},\n  {"a": 2, "b": ]\n]';
    expect(jsonErrorAt(text, errorOf(text))).toMatch(/^line 3, column 17: /);
    expect(jsonErrorAt(text, new Error('Unexpected token in JSON at position 3'))).toMatch(/^line 2, column 2: /);
    expect(jsonErrorAt(text, new Error('JSON.parse: bad at line 7 column 9 of the JSON data'))).toMatch(/^line 7, column 9: /);
  });
});
