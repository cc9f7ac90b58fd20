/** Where a JSON.parse error happened, as "line L, column C", across the engines' message styles. */
export function jsonErrorAt(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Firefox (and newer V8) already say "line N column M".
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}: ${message}`;
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : /end of (JSON )?(input|data)/i.test(message) ? text.length : undefined;
  if (offset === undefined) return message;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}: ${message}`;
}
