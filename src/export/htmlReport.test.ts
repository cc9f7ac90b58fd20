import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../markdown/render';
import { buildHtmlReport } from './htmlReport';
import { FIGURE, HOSTILE, SQL, threads, type ThreadName } from './testing/threads';
import { buildExportThread } from './thread';
import type { PlotlyFigure } from '../../protocol/figure';

const SVG_URL = 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%3E%3C%2Fsvg%3E';

function report(name: ThreadName, figureImage?: (f: PlotlyFigure) => string | null): string {
  return buildHtmlReport(buildExportThread(threads()[name]), { renderMarkdown, ...(figureImage ? { figureImage } : {}) });
}

/** Every URL the page could request: src / href / url(...) / srcset values. */
function requestedUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href|srcset|action|data)\s*=\s*"([^"]*)"/gi), ...html.matchAll(/url\(([^)]*)\)/gi)].map((m) => m[1] ?? '');
}

describe('HTML report', () => {
  it('is one document with inline CSS, a CSP that forbids requests, and no script', () => {
    const html = report('sqlOnly');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link /i);
    expect(requestedUrls(html)).toEqual([]);
  });

  it('shows the title, datasets, model, question, SQL, result table and rendered answer', () => {
    const html = report('sqlOnly');
    expect(html).toContain('<title>Penguin masses</title>');
    expect(html).toContain('<td>penguins</td><td>penguins.json</td><td>344</td><td>2</td>');
    expect(html).toContain('model: gpt-test-mini');
    expect(html).toContain('<p class="question">Mean mass by species?</p>');
    expect(html).toContain(SQL.replace(/"/g, '&quot;'));
    expect(html).toContain('<td>Gentoo</td><td>5076.02</td>');
    expect(html).toContain('Gentoo are heaviest at <strong>5076.02 g</strong>.');
    expect(html).toContain('Confidence: 90%');
  });

  it('embeds charts as SVG data images, and names a chart it could not draw', () => {
    const drawn = report('charts', () => SVG_URL);
    expect(drawn).toContain(`<img src="${SVG_URL}" alt="mean_mass by Species: bar chart">`);
    expect(requestedUrls(drawn).every((u) => u.startsWith('data:image/svg+xml'))).toBe(true);
    const undrawn = report('charts', () => null);
    expect(undrawn).toContain('Chart: mean_mass by Species: bar chart (could not be drawn for this report)');
    // A figure renderer that returns anything but an SVG data URL is not trusted.
    expect(report('charts', () => 'https://evil.example/x.png')).not.toContain('evil.example');
    expect(FIGURE.data.length).toBe(1);
  });

  it('shows Python stdout, results and errors', () => {
    const html = report('python');
    expect(html).toContain('<pre class="stdout">rows: 344\n</pre>');
    expect(html).toContain('<pre class="error">Error: ZeroDivisionError: division by zero');
    expect(html).toContain('<td>1</td>');
  });

  it('renders hostile text inert: no live tags, handlers or javascript: links', () => {
    const html = report('hostile');
    const body = html.slice(html.indexOf('<body>'));
    expect(body).not.toMatch(/<script/i);
    expect(body).not.toMatch(/<img[^>]*onerror/i);
    expect(body).not.toMatch(/href="javascript:/i);
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(`<title>&lt;script&gt;alert(1)`);
    expect(requestedUrls(html)).toEqual([]);
    expect(HOSTILE).toContain('<script>');
  });

  it('keeps attached images only when they are data: image URLs', () => {
    const input = threads().sqlOnly;
    const t = input.turns[0];
    if (!t) throw new Error('no turn');
    t.images = ['data:image/png;base64,iVBORw0KGgo=', 'https://evil.example/track.png', 'data:image/svg+xml;base64,PHN2Zz4='];
    const html = buildHtmlReport(buildExportThread(input), { renderMarkdown });
    expect(html).toContain('<img class="attached" src="data:image/png;base64,iVBORw0KGgo=" alt="Attached image 1">');
    expect(html).not.toContain('evil.example');
    expect(html).not.toContain('image/svg+xml;base64');
  });
});
