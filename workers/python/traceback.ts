/**
 * Trims a formatted Python traceback to the frames of the user's own code, so runner and
 * library internals (Pyodide's eval machinery, `_dataseer`) do not bury the line that failed.
 */

const FRAME = /^ {2}File "([^"]*)", line \d+/;

export function trimTraceback(traceback: string, userFile = '<python>'): string {
  const out: string[] = [];
  let keepFrame = true;
  for (const line of traceback.replace(/\s+$/, '').split('\n')) {
    const frame = FRAME.exec(line);
    if (frame) {
      keepFrame = frame[1] === userFile;
      if (keepFrame) out.push(line);
    } else if (line.startsWith('    ')) {
      // Source line, caret markers or a SyntaxError's pointer under a kept frame.
      if (keepFrame) out.push(line);
    } else {
      // Headers, "During handling…" separators and the exception lines themselves.
      keepFrame = true;
      out.push(line);
    }
  }
  return dropEmptyHeaders(out).join('\n');
}

/** A "Traceback (most recent call last):" with no user frame under it says nothing. */
function dropEmptyHeaders(lines: string[]): string[] {
  return lines.filter((line, i) => !(line.startsWith('Traceback (most recent call last)') && !FRAME.test(lines[i + 1] ?? '')));
}
