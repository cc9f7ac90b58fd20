/**
 * The workspace's knowledge in an export (issue 24): each used dataset's accepted data
 * dictionary and the rules the answers were given, as Markdown the notebook, the Markdown report
 * and the HTML report (through its Markdown renderer) all include, so a reader knows what the
 * codes meant and which rules applied.
 */
import type { DataDictionary, WorkspaceKnowledge } from '../../protocol/agent/knowledge';
import { escapeMarkdownCell } from './tables';
import { describeCodes } from '../../shared/knowledge/codesText';

export type ExportKnowledge = WorkspaceKnowledge & {
  /** Per rule, the answers (1-based) that were given it, when the answers recorded their rules. */
  rulesByAnswer?: Record<string, number[]>;
  /** The rules are the workspace's at export time (the answers did not record theirs). */
  rulesFromWorkspace?: boolean;
};

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
            `| ${cell(c.name)} | ${cell(c.description)} | ${cell(c.unit)} | ${c.role} | ${cell(describeCodes(c.codes).replace(/^codes: /, ''))} | ${cell(c.missing.join(', '))} |`,
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
  if (rules.length) {
    const by = k.rulesByAnswer;
    const counts = by ? new Set(rules.map((r) => (by[r] ?? []).join(','))) : new Set<string>();
    const same = !by || counts.size === 1;
    const head = k.rulesFromWorkspace
      ? "The workspace's rules when this was exported (these answers did not record the rules they were given):"
      : same
        ? 'Every answer was given these rules:'
        : 'The answers were given these rules (which answers in brackets):';
    const line = (r: string) => `- ${cell(r)}${same || !by ? '' : ` [answer${(by[r]?.length ?? 0) === 1 ? '' : 's'} ${(by[r] ?? []).join(', ')}]`}`;
    parts.push(`## Workspace rules\n\n${head}\n\n${rules.map(line).join('\n')}`);
  }
  if (k.metrics?.length) {
    parts.push(`## Metrics\n\n| metric | table | definition | description |\n| --- | --- | --- | --- |\n${k.metrics.map((m) => `| ${cell(m.name)} | ${cell(m.dataset)} | ${cell(m.expression)} | ${cell(m.description)} |`).join('\n')}`);
  }
  if (k.trusted?.length) {
    parts.push(`## Trusted queries\n\n${k.trusted.map((q) => `- ${cell(q.question)}\n\n  \`\`\`sql\n  ${q.sql.trim().replace(/\n/g, '\n  ')}\n  \`\`\``).join('\n\n')}`);
  }
  const dicts = k.dictionaries.filter((d) => d.status === 'accepted');
  if (dicts.length) parts.push(`## Data dictionaries\n\n${dicts.map(dictionaryMarkdown).join('\n\n')}`);
  return parts.join('\n\n');
}
