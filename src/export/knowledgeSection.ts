/**
 * The workspace's knowledge in an export (issue 24): each used dataset's accepted data
 * dictionary and the rules the answers were given, as Markdown the notebook, the Markdown report
 * and the HTML report (through its Markdown renderer) all include, so a reader knows what the
 * codes meant and which rules applied.
 */
import type { DataDictionary, WorkspaceKnowledge } from '../../protocol/agent/knowledge';
import { escapeMarkdownCell } from './tables';

export type ExportKnowledge = WorkspaceKnowledge;

const cell = (s: string) => escapeMarkdownCell(s.replace(/\s*\n\s*/g, ' '));

function dictionaryMarkdown(d: DataDictionary): string {
  const lines = [`### Data dictionary: ${cell(d.dataset)}`];
  const notes = [
    d.row_meaning.trim() ? `One row: ${cell(d.row_meaning.trim())}` : '',
    d.grain.trim() ? `Grain: ${cell(d.grain.trim())}` : '',
    ...d.caveats.map((c) => `Caveat: ${cell(c)}`),
    ...d.joins.map((j) => `Joins: ${cell(`${d.dataset}.${j.column} = ${j.other_dataset}.${j.other_column}`)}`),
  ].filter(Boolean);
  if (notes.length) lines.push(notes.map((n) => `- ${n}`).join('\n'));
  const described = d.columns.filter((c) => c.description || c.unit || c.codes.length || c.missing.length);
  if (described.length) {
    lines.push(
      [
        '| column | description | unit | role | codes | missing when |',
        '| --- | --- | --- | --- | --- | --- |',
        ...described.map(
          (c) =>
            `| ${cell(c.name)} | ${cell(c.description)} | ${cell(c.unit)} | ${c.role} | ${cell(c.codes.map((x) => `${x.code} = ${x.meaning}`).join('; '))} | ${cell(c.missing.join(', '))} |`,
        ),
      ].join('\n'),
    );
  }
  return lines.join('\n\n');
}

/** Markdown for the export, or '' when there is no knowledge to show. */
export function knowledgeMarkdown(k: ExportKnowledge | undefined): string {
  if (!k) return '';
  const parts: string[] = [];
  const rules = k.rules.map((r) => r.trim()).filter(Boolean);
  if (rules.length) parts.push(`## Workspace rules\n\nEvery answer was given these rules:\n\n${rules.map((r) => `- ${cell(r)}`).join('\n')}`);
  const dicts = k.dictionaries.filter((d) => d.status === 'accepted');
  if (dicts.length) parts.push(`## Data dictionaries\n\n${dicts.map(dictionaryMarkdown).join('\n\n')}`);
  return parts.join('\n\n');
}
