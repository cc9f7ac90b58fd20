/**
 * "No raw rows" for a thread's history: tool outputs stored before the setting was turned on
 * still hold every row. Just before a request goes out, each tool message is shaped the way a
 * new output would be, so a thread that switches the setting on mid-way sends no old rows either.
 * Outputs already shaped come out the same, so applying it to every request is safe.
 */
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { toJsonText } from '../core/toolOutput';
import { limitLines, withholdRows, type RowPolicy } from '../tools/withholdRows';

/** How execute.ts quotes a failed run's printed output in a tool error. */
const STDOUT_MARK = '\nstdout:\n';

function shapeText(tool: string | undefined, text: string, policy: RowPolicy): string {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // An error: only the program's printed output after `stdout:` can hold rows; the message
    // and traceback stay whole so the model can still fix the code.
    const at = text.indexOf(STDOUT_MARK);
    if (at < 0) return text;
    const head = text.slice(0, at + STDOUT_MARK.length);
    return head + limitLines(text.slice(at + STDOUT_MARK.length), policy.maxRows);
  }
  const shaped = withholdRows(tool, value, policy);
  return shaped === value ? text : toJsonText(shaped);
}

export function withholdHistory(messages: BaseMessage[], policy: RowPolicy): BaseMessage[] {
  return messages.map((m) => {
    if (!ToolMessage.isInstance(m) || typeof m.content !== 'string') return m;
    const text = shapeText(m.name, m.content, policy);
    if (text === m.content) return m;
    return new ToolMessage({ content: text, tool_call_id: m.tool_call_id, name: m.name, status: m.status, id: m.id, additional_kwargs: m.additional_kwargs });
  });
}
