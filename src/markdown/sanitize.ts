/**
 * The browser-side check on rendered markdown: DOMPurify with a narrow profile, returning a
 * DocumentFragment so callers insert nodes, never HTML strings. Browser only (DOMPurify needs a
 * DOM; without one it would return its input unchanged, so this refuses to run instead).
 */
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { safeHref } from './render';

/** Elements nothing we render needs, and that could load, submit, embed or restyle the page. */
const FORBID_TAGS = ['style', 'script', 'iframe', 'frame', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select', 'option', 'img', 'picture', 'video', 'audio', 'source', 'track', 'link', 'meta', 'base', 'template', 'dialog', 'details'];
const FORBID_ATTR = ['id', 'name', 'srcset', 'formaction', 'action', 'xlink:href', 'autofocus', 'tabindex', 'contenteditable', 'draggable', 'popover', 'popovertarget'];

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS,
  FORBID_ATTR,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  ADD_ATTR: ['target'],
  ALLOW_DATA_ATTR: false,
};

let purifier: DOMPurify | null = null;

function instance(): DOMPurify {
  if (purifier) return purifier;
  if (typeof window === 'undefined') throw new Error('sanitize: needs a browser DOM');
  // A private instance: these hooks must not change how anything else in the page sanitises.
  const p = createDOMPurify(window);
  if (!p.isSupported) throw new Error('sanitize: DOMPurify is not supported in this browser');
  p.addHook('uponSanitizeAttribute', (node, event) => {
    // KaTeX positions glyphs with inline styles; nowhere else may set them (overlays, hiding text).
    if (event.attrName === 'style' && !node.closest('.katex')) event.keepAttr = false;
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = safeHref(node.getAttribute('href'));
    if (!href) {
      node.removeAttribute('href');
      return;
    }
    node.setAttribute('href', href);
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  purifier = p;
  return p;
}

export function sanitizeToFragment(html: string): DocumentFragment {
  return instance().sanitize(html, CONFIG);
}
