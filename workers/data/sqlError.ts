/**
 * DuckDB's error as one readable message. Streamed statements report errors as JSON
 * (`{"exception_type":"Parser","exception_message":…}`); DuckDB-WASM repeats the "LINE n:" caret
 * block, of which one is kept.
 */
import { messageOf } from '../../shared/errors';
export function briefSqlError(e: unknown): string {
  let text = (messageOf(e)).trim();
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && 'exception_message' in parsed) {
        const p = parsed as { exception_type?: unknown; exception_message?: unknown };
        text = `${typeof p.exception_type === 'string' ? `${p.exception_type} Error: ` : ''}${String(p.exception_message)}`;
      }
    } catch {
      // Not JSON after all: keep the text as it is.
    }
  }
  const blocks = [...text.matchAll(/\n\s*LINE \d+:/g)];
  const second = blocks[1];
  return second?.index !== undefined ? text.slice(0, second.index).trim() : text;
}
