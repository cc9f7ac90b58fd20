/**
 * Flags ungrounded numbers inside rendered (already sanitised) markdown: text nodes are split and
 * the matches wrapped in <mark> through DOM calls, so no HTML is ever assembled from answer text.
 */
import { markUngrounded } from './answerMarks';

export const UNGROUNDED_TITLE = 'This number was not found in any tool output';

/** Text that is not prose: typeset math (its glyphs are split into spans), its MathML source, a link's shown target. */
function skipped(node: Node): boolean {
  const parent = node.parentElement;
  return parent === null || parent.closest('.katex, mark, annotation, .link-target') !== null;
}

export function markNumbers(root: DocumentFragment | Element, numbers: readonly string[]): number {
  if (numbers.length === 0) return 0;
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n instanceof Text && !skipped(n)) texts.push(n);
  let marked = 0;
  for (const text of texts) {
    const segments = markUngrounded(text.data, numbers);
    if (!segments.some((s) => s.ungrounded)) continue;
    const parts = segments.map((s) => {
      if (!s.ungrounded) return doc.createTextNode(s.text);
      const mark = doc.createElement('mark');
      mark.title = UNGROUNDED_TITLE;
      mark.textContent = s.text;
      marked++;
      return mark;
    });
    text.replaceWith(...parts);
  }
  return marked;
}
