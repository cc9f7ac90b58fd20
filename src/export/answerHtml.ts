/**
 * Markdown → sanitised HTML as a string, for the HTML report: the answers' own renderer (raw
 * HTML escaped, unsafe links dropped) and then DOMPurify, as the chat does. Browser only.
 */
import { renderMarkdown } from '../markdown/render';
import { sanitizeToFragment } from '../markdown/sanitize';

export function answerHtml(markdown: string): string {
  const holder = document.createElement('div');
  holder.append(sanitizeToFragment(renderMarkdown(markdown)));
  return holder.innerHTML;
}
