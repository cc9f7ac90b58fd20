import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../markdown/render';
import { buildHtmlReport } from './htmlReport';
import { buildMarkdownReport } from './markdownReport';
import { notebookJson } from './notebook';
import { FIGURE, KEY, PENGUINS, SETTINGS, chartStep, final, input, sqlStep, threads, turn } from './testing/threads';
import { buildExportThread, datasetsUsed, defaultTitle, redact, REDACTED, secretsOf } from './thread';
import type { DatasetInfo } from '../../protocol/data';
import { leaks } from '../../shared/testing/secretForms';

const CARS = { ...PENGUINS, name: 'cars', fileName: 'cars.json' } as DatasetInfo;

describe('export thread', () => {
  it('never lets the key or the base URL into any export, even when the conversation holds the key', () => {
    const settings = { ...SETTINGS, baseUrl: 'https://user:pa55word-XYZ@llm.example.com/v1?api-key=query-secret-123' };
    const leaky = input(
      [
        turn(`Is my key ${KEY} safe?`, [sqlStep(`SELECT '${KEY}' AS k`, [[KEY, 1]]), chartStep, { kind: 'note', text: `using ${KEY}` }], final(`Your key ${KEY} is not shown.`, { figures: [FIGURE], caveats: [KEY] })),
      ],
      { settings, title: `About ${KEY}` },
    );
    const thread = buildExportThread(leaky);
    const outputs = [notebookJson(thread), buildMarkdownReport(thread), buildHtmlReport(thread, { renderMarkdown })];
    for (const text of outputs) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('pa55word-XYZ');
      expect(text).not.toContain('query-secret-123');
      expect(text).not.toContain('llm.example.com');
      expect(text).toContain(REDACTED);
      expect(text).toContain('gpt-test-mini');
    }
    // The chat's own turns are not changed by the export.
    expect(leaky.turns[0]?.question).toContain(KEY);
  });

  // Issue #31: an endpoint that echoes the request's `Authorization` header base64-encoded (in an
  // error body, a debug field) put the key into the .md, .html and .ipynb exports.
  it('blanks a key echoed in base64 or base64url, alone or inside a longer string at any offset', () => {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
    const echoes = [b64(KEY), b64url(KEY), ...['', 'x', 'xy', 'Bearer ', 'Authorization: Bearer '].flatMap((pre) => [b64(`${pre}${KEY}|tail`), b64url(`${pre}${KEY}?`)])];
    const leaky = input(
      [turn('Why did it fail?', [sqlStep('SELECT 1', [[1, 1]]), { kind: 'note', text: `upstream said: ${echoes.join(' / ')}` }], final(`The gateway echoed ${echoes[0] ?? ''}.`, { caveats: echoes }))],
      { settings: SETTINGS, title: `Echo ${echoes[2] ?? ''}` },
    );
    const thread = buildExportThread(leaky);
    for (const text of [notebookJson(thread), buildMarkdownReport(thread), buildHtmlReport(thread, { renderMarkdown })]) {
      expect(leaks(text, KEY)).toEqual([]);
      for (const e of echoes) expect(text).not.toContain(e);
      // Decoding what is left finds no key either (each base64 run, at each alignment).
      for (const run of text.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []) {
        for (let cut = 0; cut < 4; cut++) {
          const piece = run.slice(cut);
          expect(Buffer.from(piece, 'base64').toString('latin1')).not.toContain(KEY);
        }
      }
      expect(text).toContain(REDACTED);
    }
  });

  it('checks every sample thread too', () => {
    for (const t of Object.values(threads())) {
      const thread = buildExportThread(t);
      expect(notebookJson(thread) + buildMarkdownReport(thread) + buildHtmlReport(thread, { renderMarkdown })).not.toContain(KEY);
    }
  });

  it('does not treat a short or empty key as a secret to blank everywhere', () => {
    expect(secretsOf({ baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'llama' })).toEqual([]);
    expect(secretsOf({ baseUrl: 'http://localhost/v1', apiKey: 'x', model: 'm' })).toEqual([]);
    expect(secretsOf(SETTINGS)).toEqual([KEY]);
  });

  it('redacts strings and keys deep inside plain data', () => {
    expect(redact({ a: [`x${KEY}y`, 1, null], [KEY]: true }, [KEY])).toEqual({ a: [`x${REDACTED}y`, 1, null], [REDACTED]: true });
  });

  it('lists the datasets the code named, or all of them when code named none', () => {
    const named = [turn('q', [sqlStep('SELECT * FROM "cars"')], null)];
    expect(datasetsUsed(named, [PENGUINS, CARS]).map((d) => d.name)).toEqual(['cars']);
    const python = [turn('q', [{ kind: 'tool', call_id: 'p', tool: 'run_python', args: { code: 'result = len(df)' }, state: 'done' }], null)];
    expect(datasetsUsed(python, [PENGUINS, CARS]).map((d) => d.name)).toEqual(['penguins', 'cars']);
    expect(datasetsUsed([turn('hello', [], null)], [PENGUINS])).toEqual([]);
    // A table name inside a longer word is not a mention.
    expect(datasetsUsed([turn('q', [sqlStep('SELECT 1 AS carsick')], null)], [PENGUINS, CARS]).map((d) => d.name)).toEqual(['penguins', 'cars']);
  });

  it('titles an unnamed conversation by its first question', () => {
    expect(defaultTitle([turn('  What is\nthe mean?  ', [], null)])).toBe('What is the mean?');
    expect(defaultTitle([])).toBe('Conversation');
    expect(buildExportThread(input([turn('Why?', [], null)], { title: null })).title).toBe('Why?');
  });
});
