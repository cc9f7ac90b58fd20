/**
 * Model and user text inside exported Markdown (notebook cells, the Markdown report): the
 * formatting stays, but raw HTML tags are turned into text, since not every Markdown viewer
 * sanitises (`<script>`, `<img onerror>` would otherwise be live in some). Code spans and fenced
 * blocks are left alone: a viewer shows them literally anyway.
 */
const CODE = /(`{3,}[\s\S]*?`{3,}|~{3,}[\s\S]*?~{3,}|`[^`\n]*`)/;

export function neutraliseHtml(markdown: string): string {
  return markdown
    .split(CODE)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!?])/g, '&lt;')))
    .join('');
}
