import { describe, expect, it } from 'vitest';
import { trimTraceback } from './traceback';

const RUNTIME = `Traceback (most recent call last):
  File "/lib/python3.14/site-packages/_dataseer.py", line 240, in run
    exec(compile(code, USER_FILE, "exec"), ns)
    ~~~~^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<python>", line 4, in <module>
    f()
    ~^^
  File "<python>", line 2, in f
    return 1 / 0
           ~~^~~
ZeroDivisionError: division by zero
`;

describe('trimTraceback', () => {
  it('keeps only frames from the user file and the exception line', () => {
    expect(trimTraceback(RUNTIME)).toBe(`Traceback (most recent call last):
  File "<python>", line 4, in <module>
    f()
    ~^^
  File "<python>", line 2, in f
    return 1 / 0
           ~~^~~
ZeroDivisionError: division by zero`);
  });

  it('drops library frames called from user code', () => {
    const tb = `Traceback (most recent call last):
  File "<python>", line 1, in <module>
    json.loads("{")
  File "/lib/python3.14/json/__init__.py", line 352, in loads
    return _default_decoder.decode(s)
json.decoder.JSONDecodeError: Expecting property name: line 1 column 2 (char 1)`;
    const trimmed = trimTraceback(tb);
    expect(trimmed).not.toContain('/lib/python3.14');
    expect(trimmed).toContain('json.loads("{")');
    expect(trimmed.endsWith('(char 1)')).toBe(true);
  });

  it('keeps a SyntaxError pointer', () => {
    const tb = `  File "<python>", line 1
    x = (
        ^
SyntaxError: '(' was never closed`;
    expect(trimTraceback(tb)).toBe(`  File "<python>", line 1
    x = (
        ^
SyntaxError: '(' was never closed`);
  });

  it('drops a header left with no user frame', () => {
    const tb = `Traceback (most recent call last):
  File "/lib/python3.14/site-packages/_dataseer.py", line 240, in run
    exec(compile(code, USER_FILE, "exec"), ns)
KeyboardInterrupt`;
    expect(trimTraceback(tb)).toBe('KeyboardInterrupt');
  });

  it('handles chained exceptions section by section', () => {
    const tb = `Traceback (most recent call last):
  File "<python>", line 2, in <module>
    d["x"]
KeyError: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/lib/x.py", line 1, in g
    pass
  File "<python>", line 4, in <module>
    raise ValueError("no x")
ValueError: no x`;
    const out = trimTraceback(tb);
    expect(out).toContain("KeyError: 'x'");
    expect(out).toContain('During handling');
    expect(out).not.toContain('/lib/x.py');
    expect(out.split('\n').filter((l) => l.startsWith('Traceback')).length).toBe(2);
  });
});
