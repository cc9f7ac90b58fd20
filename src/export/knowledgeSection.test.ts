import { describe, expect, it } from 'vitest';
import { buildMarkdownReport } from './markdownReport';
import { buildNotebook } from './notebook';
import { threads } from './testing/threads';
import { buildExportThread } from './thread';
import { emptyDictionary, type DataDictionary } from '../../protocol/agent/knowledge';
import { importDictionary } from '../../shared/knowledge/dictionaryImport';

function penguinsDictionary(status: DataDictionary['status'] = 'accepted'): DataDictionary {
  const d = emptyDictionary('penguins', ['Species', 'Body Mass (g)']);
  d.status = status;
  d.row_meaning = 'one penguin';
  d.columns[1] = { name: 'Body Mass (g)', description: 'Body mass | weighed at capture', unit: 'g', role: 'measure', codes: [], missing: ['NA'] };
  return d;
}

describe('knowledge in exports', () => {
  const input = () => ({
    ...threads().sqlOnly,
    knowledge: { rules: ['Answer in grams'], dictionaries: [penguinsDictionary(), { ...emptyDictionary('unused', ['x']), status: 'accepted' as const }] },
  });

  it("puts the rules and the used datasets' accepted dictionaries in the Markdown report", () => {
    const text = buildMarkdownReport(buildExportThread(input()));
    // These answers predate recorded rules: the workspace's rules, said to be the workspace's.
    expect(text).toContain("## Workspace rules\n\nThe workspace's rules when this was exported (these answers did not record the rules they were given):\n\n- Answer in grams");
    expect(text).toContain('### Data dictionary: penguins');
    expect(text).toContain('- One row: one penguin');
    expect(text).toContain('| Body Mass (g) | Body mass \\| weighed at capture | g | measure |  | NA |');
    expect(text).not.toContain('Data dictionary: unused');
    const drafts = buildMarkdownReport(buildExportThread({ ...input(), knowledge: { rules: [], dictionaries: [penguinsDictionary('draft')] } }));
    expect(drafts).not.toContain('Data dictionar');
  });

  it('lists the rules each answer was actually given, not rules added later', () => {
    const base = input();
    const first = base.turns.find((t) => t.final)!;
    // Two answers: the first was given one rule, the second (after the user added one) two.
    const turns = [
      { ...first, final: { ...first.final!, rules_given: ['Answer in grams'] } },
      { ...first, id: `${first.id}-2`, final: { ...first.final!, rules_given: ['Answer in grams', 'Round to whole grams'] } },
    ];
    const knowledge = { ...base.knowledge, rules: ['Answer in grams', 'Round to whole grams', 'Added after the conversation'] };
    const text = buildMarkdownReport(buildExportThread({ ...base, turns, knowledge }));
    expect(text).not.toContain('Added after the conversation');
    expect(text).toContain('The answers were given these rules (which answers in brackets):\n\n- Answer in grams [answers 1, 2]\n- Round to whole grams [answer 2]');
    const one = buildMarkdownReport(buildExportThread({ ...base, turns: turns.slice(0, 1), knowledge }));
    expect(one).toContain('Every answer was given these rules:\n\n- Answer in grams\n');
    expect(one).not.toContain('Round to whole grams');
  });

  it('carries the used tables\' metrics and trusted queries', () => {
    const base = input();
    const metric = { id: 'm', name: 'heavy', dataset: 'penguins', expression: 'avg("Body Mass (g)")', description: 'Mean mass', created_at: '' };
    const elsewhere = { ...metric, id: 'm2', name: 'other', dataset: 'unused' };
    const trusted = { id: 't', question: 'How heavy are they?', sql: 'SELECT avg("Body Mass (g)")\nFROM penguins', datasets: ['penguins'], created_at: '' };
    const text = buildMarkdownReport(buildExportThread({ ...base, knowledge: { ...base.knowledge, metrics: [metric, elsewhere], trusted: [trusted] } }));
    expect(text).toContain('## Metrics\n\n| metric | table | definition | description |\n| --- | --- | --- | --- |\n| heavy | penguins | avg("Body Mass (g)") | Mean mass |');
    expect(text).not.toContain('| other |');
    expect(text).toContain('## Trusted queries\n\n- How heavy are they?\n\n  ```sql\n  SELECT avg("Body Mass (g)")\n  FROM penguins\n  ```');
  });

  it('puts them in the notebook as a cell and as metadata that imports back', () => {
    const nb = buildNotebook(buildExportThread(input()));
    expect(nb.cells[1]?.cell_type).toBe('markdown');
    expect((nb.cells[1]?.source as string[]).join('')).toContain('### Data dictionary: penguins');
    const meta = (nb.metadata.dataseer as { knowledge: { dictionaries: DataDictionary[] } }).knowledge;
    expect(meta.dictionaries.map((d) => d.dataset)).toEqual(['penguins']);
    const back = importDictionary(JSON.stringify(meta.dictionaries[0]), 'nb.json', 'penguins', ['Species', 'Body Mass (g)']);
    expect(back.dictionary.columns[1]).toEqual(penguinsDictionary().columns[1]);
  });
});

describe('an export without knowledge', () => {
  it('is unchanged: no knowledge cell, no metadata', () => {
    const plain = buildNotebook(buildExportThread(threads().sqlOnly));
    const empty = buildNotebook(buildExportThread({ ...threads().sqlOnly, knowledge: { rules: [], dictionaries: [] } }));
    expect(JSON.stringify({ ...empty, metadata: {} })).toBe(JSON.stringify({ ...plain, metadata: {} }));
    expect('knowledge' in (empty.metadata.dataseer as object)).toBe(false);
  });
});
