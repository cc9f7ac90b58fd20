/**
 * Keeps a host element's children in step with rendered markdown blocks: a block whose source
 * (and flagged numbers) did not change keeps its nodes, so a streaming answer re-sanitises and
 * re-lays out only the block the newest tokens landed in.
 */
import type { RenderedBlock } from './render';
import { markNumbers } from './markNumbers';
import { sanitizeToFragment } from './sanitize';

interface Shown {
  key: string;
  el: HTMLElement;
}

export class BlockView {
  readonly #host: HTMLElement;
  #shown: Shown[] = [];
  #marksKey = '';

  constructor(host: HTMLElement) {
    this.#host = host;
  }

  /**
   * Brings the view up to date, or part of the way when `budgetMs` runs out (a long answer shown
   * at once is built over several frames instead of one long task). Returns whether it is done;
   * calling again continues, since blocks already shown are skipped.
   */
  update(blocks: readonly RenderedBlock[], ungrounded: readonly string[], inline = false, budgetMs = Infinity): boolean {
    const marksKey = ungrounded.join('\u0000');
    if (marksKey !== this.#marksKey) {
      // Different numbers to flag: every block is rebuilt.
      for (const s of this.#shown) s.key = '\u0000stale';
      this.#marksKey = marksKey;
    }
    const doc = this.#host.ownerDocument;
    const start = performance.now();
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      if (!block) continue;
      const old = this.#shown[i];
      if (old && old.key === block.key) continue;
      if (performance.now() - start > budgetMs) return false;
      // `display: contents` wrappers: each block is replaceable, the layout is as if they were not there.
      const el = doc.createElement(inline ? 'span' : 'div');
      el.className = 'md-block';
      const fragment = sanitizeToFragment(block.html);
      markNumbers(fragment, ungrounded);
      // Code, tables and display math scroll sideways when wide: keyboard users must reach them.
      for (const scroller of fragment.querySelectorAll<HTMLElement>('pre, table, .math-display')) scroller.tabIndex = 0;
      el.append(fragment);
      if (old) old.el.replaceWith(el);
      else this.#host.append(el);
      this.#shown[i] = { key: block.key, el };
    }
    for (const extra of this.#shown.splice(blocks.length)) extra.el.remove();
    return true;
  }
}
