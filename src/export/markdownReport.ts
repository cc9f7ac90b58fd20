/**
 * A thread as a Markdown report: questions, the code of each step in fenced blocks, result
 * tables as GFM tables (cells escaped), charts named (the notebook and the HTML report hold
 * the drawings), and the answers.
 */
import { answerMarkdown, figureLabel, outlineTurn, questionQuote, type OutlineItem, type OutlineTurn, type TableData } from './outline';
import { safeMarkdown } from './markdownText';
import { escapeMarkdownCell, gfmTable, tableFootnote } from './tables';
import { knowledgeMarkdown } from './knowledgeSection';
import type { ExportThread } from './thread';
import { plural } from '../../shared/text';

/** A fenced block whose fence is longer than any backtick run inside the text. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`;
}

const MAX_ROWS = 100;

function tableMd(t: TableData): string {
  if (t.columns.length === 0) return '*The statement returned no columns.*';
  return `${gfmTable(t, MAX_ROWS)}\n\n*${tableFootnote(t, Math.min(MAX_ROWS, t.rows.length))}*`;
}

const chartNote = (label: string) => `*Chart: ${escapeMarkdownCell(label)}* (drawn in the notebook and the HTML report exports)`;

function itemMd(item: OutlineItem): string {
  switch (item.kind) {
    case 'note':
      return item.markdown;
    case 'sql': {
      const parts = ['### SQL', fence(item.sql, 'sql')];
      if (item.error !== null) parts.push(`**Error**\n\n${fence(item.error, 'text')}`);
      else if (item.table) parts.push(tableMd(item.table));
      return parts.join('\n\n');
    }
    case 'chart': {
      const parts = ['### Chart', fence(item.sql, 'sql')];
      if (item.error !== null) parts.push(`**Error**\n\n${fence(item.error, 'text')}`);
      else if (item.figure) parts.push(chartNote(figureLabel(item.figure)));
      return parts.join('\n\n');
    }
    case 'python': {
      const parts = ['### Python', fence(item.code, 'python')];
      if (item.stdout) parts.push(`Output:\n\n${fence(item.stdout, 'text')}`);
      if (item.error !== null) parts.push(`**Error**\n\n${fence(item.error, 'text')}`);
      else {
        if (item.table) parts.push(tableMd(item.table));
        else if (item.result !== null && item.result !== undefined) parts.push(`Result:\n\n${fence(typeof item.result === 'string' ? item.result : JSON.stringify(item.result, null, 2), 'text')}`);
        if (item.figure) parts.push(chartNote(figureLabel(item.figure)));
      }
      return parts.join('\n\n');
    }
  }
}

function turnMd(t: OutlineTurn, n: number): string {
  const parts = [`## Question ${n}`, questionQuote(t)];
  if (t.imageCount > 0) parts.push(`*(${plural(t.imageCount, 'image')} attached)*`);
  parts.push(...t.items.map(itemMd));
  parts.push(...t.extraFigures.map((f) => chartNote(figureLabel(f))));
  parts.push(answerMarkdown(t));
  return parts.join('\n\n');
}

export function buildMarkdownReport(thread: ExportThread): string {
  const date = thread.exportedAt.toISOString().slice(0, 16).replace('T', ' ');
  const head = [`# ${escapeMarkdownCell(thread.title)}`, `Exported from Dataseer on ${date} UTC · model: ${escapeMarkdownCell(thread.model)}`];
  if (thread.datasets.length > 0) {
    const rows = thread.datasets.map((d) => {
      const file = d.sheet !== undefined ? `${d.fileName} (sheet ${d.sheet})` : d.fileName;
      return `| ${escapeMarkdownCell(d.name)} | ${escapeMarkdownCell(file)} | ${d.rowCount} | ${d.columnCount} |`;
    });
    head.push(['| dataset | file | rows | columns |', '| --- | --- | --- | --- |', ...rows].join('\n'));
  }
  const knowledge = knowledgeMarkdown(thread.knowledge);
  if (knowledge) head.push(knowledge);
  // Written again from its tokens as a whole: pieces joined here cannot form an image either.
  return `${safeMarkdown([...head, ...thread.turns.map((t, i) => turnMd(outlineTurn(t), i + 1))].join('\n\n'))}\n`;
}
