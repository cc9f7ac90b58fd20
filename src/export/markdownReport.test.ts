import { describe, expect, it } from 'vitest';
import { buildMarkdownReport, fence } from './markdownReport';
import { SQL, threads, type ThreadName } from './testing/threads';
import { buildExportThread } from './thread';

const md = (name: ThreadName) => buildMarkdownReport(buildExportThread(threads()[name]));

describe('Markdown report', () => {
  it('has the title, datasets, question, SQL in a fenced block, a GFM table and the answer', () => {
    const text = md('sqlOnly');
    expect(text.startsWith('# Penguin masses\n')).toBe(true);
    expect(text).toContain('| penguins | penguins.json | 344 | 2 |');
    expect(text).toContain('> Mean mass by species?');
    expect(text).toContain(`\`\`\`sql\n${SQL}\n\`\`\``);
    expect(text).toContain('| Species | mean\\_mass |\n| --- | --- |\n| Adelie | 3700.66 |');
    expect(text).toContain('*3 rows × 2 columns*');
    expect(text).toContain('Gentoo are heaviest at **5076.02 g**.');
    expect(text).toContain('- Some masses are missing.');
  });

  it('notes charts and shows Python output and errors', () => {
    expect(md('charts')).toContain('*Chart: mean\\_mass by Species: bar chart* (drawn in the notebook and the HTML report exports)');
    const py = md('python');
    expect(py).toContain('Output:\n\n```text\nrows: 344\n```');
    expect(py).toContain('**Error**\n\n```text\nError: ZeroDivisionError');
  });

  it('escapes pipes and HTML in table cells and turns raw tags in answers into text', () => {
    const text = md('hostile');
    const row = text.split('\n').find((l) => l.startsWith('| \\<script'));
    expect(row).toBeDefined();
    // Exactly two cells: every | inside the value is escaped.
    expect(row?.replace(/\\\|/g, '').split('|').length).toBe(4);
    // Raw tags survive only inside fenced code, which viewers show as text.
    const outsideFences = text.replace(/^(`{3,})[a-z]*\n[\s\S]*?\n\1$/gm, '');
    expect(outsideFences).not.toMatch(/(^|[^`\\])<script>/m);
    expect(outsideFences).not.toMatch(/(^|[^\\])<img /m);
    expect(text).toContain('&lt;script>alert(1)&lt;/script>');
  });

  it('fences code with more backticks than it contains', () => {
    expect(fence('a ``` b', 'sql')).toBe('````sql\na ``` b\n````');
    expect(fence('x\n')).toBe('```\nx\n```');
  });
});
