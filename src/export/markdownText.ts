/**
 * Model and user text inside exported Markdown (notebook cells, the Markdown report): the
 * formatting stays, but raw HTML tags are turned into text, since not every Markdown viewer
 * sanitises (`<script>`, `<img onerror>` would otherwise be live in some). Code spans and fenced
 * blocks are left alone: a viewer shows them literally anyway.
 */
const CODE = /(`{3,}[\s\S]*?`{3,}|~{3,}[\s\S]*?~{3,}|`[^`\n]*`)/;

/**
 * Markdown images become links: a viewer (Jupyter, VS Code, GitHub) would fetch the image the
 * moment the file is opened, so a model's `![x](https://…?d=rows)` would leak. Inline `data:`
 * images fetch nothing and stay.
 */
export function imagesToLinks(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g, (whole, alt: string, url: string) =>
      /^data:image\//i.test(url) ? whole : `[${alt || 'image'}](${url})`,
    )
    .replace(/!\[([^\]]*)\]\[([^\]]*)\]/g, (_whole, alt: string, ref: string) => `[${alt || 'image'}][${ref}]`);
}

export function neutraliseHtml(markdown: string): string {
  return markdown
    .split(CODE)
    .map((part, i) => (i % 2 === 1 ? part : imagesToLinks(part.replace(/<(?=[A-Za-z/!?])/g, '&lt;'))))
    .join('');
}
