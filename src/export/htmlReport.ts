/**
 * A thread as one self-contained HTML file: inline CSS, no script, charts as SVG images in
 * `data:` URLs, tables with every value escaped. A Content-Security-Policy in the file forbids
 * any request but `data:` images, so it opens offline and nothing in it can call home or run.
 * Markdown (answers, notes) is turned into sanitised HTML by the renderer the caller passes in.
 */
import { knowledgeMarkdown } from './knowledgeSection';
import type { PlotlyFigure } from '../../protocol/figure';
import { answerMarkdown, figureLabel, outlineTurn, type OutlineItem, type OutlineTurn } from './outline';
import { htmlTable, tableFootnote } from './tables';
import type { ExportThread } from './thread';
import { escapeHtml } from '../../shared/text';

export interface HtmlReportOptions {
  /** Markdown → sanitised HTML (safe to insert as is). */
  renderMarkdown: (markdown: string) => string;
  /** A `data:image/svg+xml…` URL for a figure, or null when it could not be drawn. */
  figureImage?: (figure: PlotlyFigure) => string | null;
}

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const CSS = `
:root { color-scheme: light dark; --fg: #17202a; --bg: #fff; --muted: #5a6472; --border: #d5dbe3; --surface: #f4f6f9; --accent: #2563eb; --danger: #b42318; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ee; --bg: #12161c; --muted: #9aa4b2; --border: #333c4a; --surface: #1b2129; --accent: #7aa2ff; --danger: #ff8a80; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 960px; padding: 1.5rem; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6rem; margin: 0 0 0.3rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.5rem; border-top: 1px solid var(--border); padding-top: 1rem; }
h3 { font-size: 0.85rem; margin: 0.8rem 0 0.3rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.muted { color: var(--muted); }
.question { white-space: pre-wrap; background: var(--surface); border-left: 3px solid var(--accent); margin: 0; padding: 0.6rem 0.8rem; border-radius: 6px; }
pre { background: var(--surface); padding: 0.6rem; border-radius: 6px; overflow: auto; font-size: 0.85rem; white-space: pre-wrap; word-break: break-word; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.error { color: var(--danger); }
.table-wrap { overflow: auto; max-height: 32rem; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { border: 1px solid var(--border); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
thead th { background: var(--surface); }
figure { margin: 0.5rem 0; }
figure img { max-width: 100%; height: auto; background: #fff; border-radius: 6px; }
figcaption { font-size: 0.85rem; color: var(--muted); }
.answer { border: 1px solid var(--border); border-left: 3px solid var(--accent); border-radius: 8px; padding: 0.4rem 1rem; margin-top: 0.8rem; }
.note { font-size: 0.9rem; color: var(--muted); }
img.attached { max-width: 240px; max-height: 240px; border-radius: 6px; }
/* KaTeX's own CSS is not bundled: show its MathML, which browsers typeset, instead of the unstyled HTML copy. */
.katex-html { display: none; }
@media print { pre, .table-wrap { max-height: none; overflow: visible; } }
`;

function datasetsHtml(thread: ExportThread): string {
  if (thread.datasets.length === 0) return '<p class="muted">No dataset was used.</p>';
  const rows = thread.datasets
    .map((d) => {
      const file = d.sheet !== undefined ? `${d.fileName} (sheet ${d.sheet})` : d.fileName;
      return `<tr><td>${escapeHtml(d.name)}</td><td>${escapeHtml(file)}</td><td>${d.rowCount}</td><td>${d.columnCount}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th scope="col">dataset</th><th scope="col">file</th><th scope="col">rows</th><th scope="col">columns</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

function figureHtml(fig: PlotlyFigure, image: HtmlReportOptions['figureImage']): string {
  const label = escapeHtml(figureLabel(fig));
  const src = image?.(fig) ?? null;
  // Only our own SVG data URLs go into src; anything else would be a way out of the file.
  if (src && /^data:image\/svg\+xml[;,]/.test(src)) return `<figure><img src="${escapeHtml(src)}" alt="${label}"><figcaption>${label}</figcaption></figure>`;
  return `<figure><figcaption>Chart: ${label} (could not be drawn for this report)</figcaption></figure>`;
}

const code = (text: string, lang: string) => `<pre><code class="language-${lang}">${escapeHtml(text)}</code></pre>`;
const errorBlock = (text: string) => `<pre class="error">${escapeHtml(text)}</pre>`;

function itemHtml(item: OutlineItem, opts: HtmlReportOptions): string {
  switch (item.kind) {
    case 'note':
      return `<div class="note">${opts.renderMarkdown(item.markdown)}</div>`;
    case 'sql': {
      const parts = ['<h3>SQL</h3>', code(item.sql, 'sql')];
      if (item.error !== null) parts.push(errorBlock(item.error));
      else if (item.table) parts.push(`<div class="table-wrap">${htmlTable(item.table)}</div>`, `<p class="muted">${escapeHtml(tableFootnote(item.table, Math.min(500, item.table.rows.length)))}</p>`);
      return parts.join('\n');
    }
    case 'chart': {
      const parts = ['<h3>Chart</h3>', code(item.sql, 'sql')];
      if (item.error !== null) parts.push(errorBlock(item.error));
      else if (item.figure) parts.push(figureHtml(item.figure, opts.figureImage));
      return parts.join('\n');
    }
    case 'python': {
      const parts = ['<h3>Python</h3>', code(item.code, 'python')];
      if (item.stdout) parts.push(`<pre class="stdout">${escapeHtml(item.stdout)}</pre>`);
      if (item.error !== null) parts.push(errorBlock(item.error));
      else {
        if (item.table) parts.push(`<div class="table-wrap">${htmlTable(item.table)}</div>`, `<p class="muted">${escapeHtml(tableFootnote(item.table, Math.min(500, item.table.rows.length)))}</p>`);
        else if (item.result !== null && item.result !== undefined) parts.push(`<pre>${escapeHtml(typeof item.result === 'string' ? item.result : JSON.stringify(item.result, null, 2))}</pre>`);
        if (item.figure) parts.push(figureHtml(item.figure, opts.figureImage));
      }
      return parts.join('\n');
    }
  }
}

/** Attached images are `data:` URLs of the composer's image types; anything else is dropped. */
function imagesHtml(turn: ExportThread['turns'][number]): string {
  const safe = (turn.images ?? []).filter((u) => /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/.test(u));
  return safe.map((u, i) => `<img class="attached" src="${u}" alt="Attached image ${i + 1}">`).join('\n');
}

function turnHtml(t: OutlineTurn, raw: ExportThread['turns'][number], n: number, opts: HtmlReportOptions): string {
  const parts = [`<section class="turn" aria-labelledby="q${n}">`, `<h2 id="q${n}">Question ${n}</h2>`, `<p class="question">${escapeHtml(t.question)}</p>`];
  const images = imagesHtml(raw);
  if (images) parts.push(`<p>${images}</p>`);
  parts.push(...t.items.map((i) => itemHtml(i, opts)));
  for (const fig of t.extraFigures) parts.push(figureHtml(fig, opts.figureImage));
  parts.push(`<div class="answer">${opts.renderMarkdown(answerMarkdown(t))}</div>`, '</section>');
  return parts.join('\n');
}

export function buildHtmlReport(thread: ExportThread, opts: HtmlReportOptions): string {
  const date = thread.exportedAt.toISOString().slice(0, 16).replace('T', ' ');
  const turns = thread.turns.map((raw, i) => turnHtml(outlineTurn(raw), raw, i + 1, opts));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Dataseer">
<title>${escapeHtml(thread.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(thread.title)}</h1>
<p class="muted">Exported from Dataseer on ${date} UTC · model: ${escapeHtml(thread.model)}</p>
${datasetsHtml(thread)}
${knowledgeMarkdown(thread.knowledge) ? `<section class="knowledge">${opts.renderMarkdown(knowledgeMarkdown(thread.knowledge))}</section>` : ''}
</header>
<main>
${turns.join('\n')}
</main>
</body>
</html>
`;
}
