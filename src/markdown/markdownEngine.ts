/**
 * Everything markdown rendering needs, as one lazily loaded chunk (marked, KaTeX with its CSS and
 * fonts, DOMPurify, the grammars): the app shell stays small and the first answer pays once.
 * KaTeX's fonts are bundled assets, so math typesets offline.
 */
import 'katex/dist/katex.min.css';
import './CodeBlock.css';
import { createStreamRenderer, renderInline, type RenderedBlock } from './render';

export { BlockView } from './blockView';

/**
 * A renderer for one view: block mode (answers) re-lexes only the tail of text that grows at its
 * end; inline mode (caveats) is one run. Both give the block list BlockView takes.
 */
export function createRenderer(inline: boolean): (source: string) => RenderedBlock[] {
  if (inline) return (source) => [{ key: source, html: renderInline(source) }];
  return createStreamRenderer();
}
