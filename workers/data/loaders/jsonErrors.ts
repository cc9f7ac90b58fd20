/**
 * Where a JSON.parse error happened, as "line L, column C: message". Engines word this
 * differently (V8 sometimes gives only a snippet), so when the message has no position the
 * text is re-scanned to find the first offending character.
 */
import { messageOf } from '../../../shared/errors';
export function jsonErrorAt(text: string, error: unknown): string {
  const message = messageOf(error);
  // Firefox (and newer V8) already say "line N column M".
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}: ${message}`;
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : firstSyntaxError(text);
  if (offset === undefined) return message;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}: ${message}`;
}

class SyntaxAt {
  constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Offset of the first character that breaks JSON syntax; undefined if none is found. */
export function firstSyntaxError(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const expect = (char: string) => {
    ws();
    if (text[i] !== char) fail();
    i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 34) return void i++;
      if (c < 32) fail();
      if (c === 92) {
        i++;
        const e = text[i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (e === undefined || !'"\\/bfnrt'.includes(e)) fail();
      }
      i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        expect(':');
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) return void (i += literal.length);
    }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    return undefined; // say, nesting too deep to re-scan: report without a location
  }
}
