import { describe, expect, it } from 'vitest';
import { PRECACHE_LIMIT_BYTES, filesNamedBy, selectPrecache, servableFiles, type BuildFile } from './precacheList';

const files: BuildFile[] = [
  { path: 'index.html', bytes: 700 },
  { path: 'assets/index-abc.js', bytes: 86_000 },
  { path: 'assets/index-abc.css', bytes: 13_000 },
  { path: 'assets/index-abc.js.map', bytes: 300_000 },
  { path: 'assets/duckdb-eh-xyz.wasm', bytes: 34_000_000 },
  { path: 'assets/duckdb-browser-eh.worker-q.js', bytes: 772_000 },
  { path: 'samples/penguins.json', bytes: 67_000 },
  { path: 'manifest.webmanifest', bytes: 365 },
  { path: 'sw.js', bytes: 4_000 },
  { path: '.DS_Store', bytes: 6_000 },
];

describe('selectPrecache', () => {
  it('takes the shell and small files, leaves heavy engine files to first use', () => {
    expect(selectPrecache(files)).toEqual(['assets/index-abc.css', 'assets/index-abc.js', 'index.html', 'manifest.webmanifest', 'samples/penguins.json']);
  });

  it('precaches woff2 fonts but not their woff/ttf fallbacks, which no supported browser fetches', () => {
    const fonts = [
      { path: 'assets/KaTeX_Main-Regular-a.woff2', bytes: 26_000 },
      { path: 'assets/KaTeX_Main-Regular-b.woff', bytes: 30_000 },
      { path: 'assets/KaTeX_Main-Regular-c.ttf', bytes: 53_000 },
    ];
    expect(selectPrecache(fonts)).toEqual(['assets/KaTeX_Main-Regular-a.woff2']);
    expect(servableFiles(fonts)).toHaveLength(3);
  });

  it('always keeps index.html, the offline answer to every page load', () => {
    expect(selectPrecache([{ path: 'index.html', bytes: PRECACHE_LIMIT_BYTES * 2 }])).toEqual(['index.html']);
  });
});

describe('the shell index.html loads', () => {
  // Issue 30: a 660 KB main bundle over the limit was "cached on first use", but the first visit
  // loads it before the worker controls the page, so the offline reload was a blank page.
  const big: BuildFile[] = [
    { path: 'index.html', bytes: 900 },
    { path: 'assets/index-Bx1.js', bytes: 660 * 1024 },
    { path: 'assets/vendor-Q2.js', bytes: 700 * 1024 },
    { path: 'assets/index-Bx1.css', bytes: 20_000 },
    { path: 'assets/plotly-Z9.js', bytes: 3_500_000 },
    { path: 'assets/index-Bx1.js.map', bytes: 2_000_000 },
  ];
  const html = '<script type="module" crossorigin src="./assets/index-Bx1.js"></script><link rel="modulepreload" crossorigin href="/dataseer/assets/vendor-Q2.js"><link rel="stylesheet" crossorigin href="./assets/index-Bx1.css">';

  it('finds the files the page names, and no other (not a lazily loaded chunk, not a map)', () => {
    expect([...filesNamedBy(html, big)].sort()).toEqual(['assets/index-Bx1.css', 'assets/index-Bx1.js', 'assets/vendor-Q2.js']);
  });

  it('precaches them whatever their size; heavy lazy chunks stay on first use', () => {
    expect(selectPrecache(big, PRECACHE_LIMIT_BYTES, filesNamedBy(html, big))).toEqual(['assets/index-Bx1.css', 'assets/index-Bx1.js', 'assets/vendor-Q2.js', 'index.html']);
    expect(selectPrecache(big)).not.toContain('assets/index-Bx1.js');
  });
});

describe('servableFiles', () => {
  it('lists everything but maps, the worker itself and dot files', () => {
    expect(servableFiles(files)).toEqual([
      'assets/duckdb-browser-eh.worker-q.js',
      'assets/duckdb-eh-xyz.wasm',
      'assets/index-abc.css',
      'assets/index-abc.js',
      'index.html',
      'manifest.webmanifest',
      'samples/penguins.json',
    ]);
  });
});
