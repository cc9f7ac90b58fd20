import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backgroundOf, FAVICON_ICO, fullBleedSvg, ICONS, pngToIco, renderIcons } from './icons';

const SOURCE = readFileSync(new URL('../public/icon.svg', import.meta.url), 'utf8');

/** Width, height and colour type from a PNG's IHDR chunk. */
function pngHeader(png: Uint8Array): { width: number; height: number; colourType: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(new TextDecoder().decode(png.slice(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20), colourType: view.getUint8(25) };
}

describe('renderIcons', () => {
  it('renders every icon at its size from the one source, plus a favicon.ico', async () => {
    const files = await renderIcons(SOURCE);
    expect([...files.keys()].sort()).toEqual([...ICONS.map((i) => i.fileName), FAVICON_ICO].sort());
    for (const spec of ICONS) {
      const { width, height } = pngHeader(files.get(spec.fileName) ?? new Uint8Array());
      expect([spec.fileName, width, height]).toEqual([spec.fileName, spec.size, spec.size]);
    }
    const ico = files.get(FAVICON_ICO) ?? new Uint8Array();
    expect([...ico.slice(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(pngHeader(ico.slice(22)).width).toBe(32);
  });

  it('fills a maskable icon to its corners, where the plain one is transparent', async () => {
    const { Resvg } = await import('@resvg/resvg-wasm');
    await renderIcons(SOURCE); // initialises the renderer
    const corner = (svg: string) => {
      const image = new Resvg(svg, { fitTo: { mode: 'width', value: 64 } }).render();
      return [...image.pixels.slice(0, 4)];
    };
    expect(corner(SOURCE)[3]).toBe(0);
    expect(corner(fullBleedSvg(SOURCE, '#1f4e79', 0.8))).toEqual([0x1f, 0x4e, 0x79, 255]);
  });

  it('lists in the manifest exactly the icons the build makes or ships', () => {
    const manifest = JSON.parse(readFileSync(new URL('../public/manifest.webmanifest', import.meta.url), 'utf8')) as { icons: { src: string; sizes: string; purpose: string }[] };
    const made = new Map(ICONS.map((i) => [i.fileName, i.size]));
    for (const icon of manifest.icons) {
      if (icon.src === 'icon.svg') continue;
      const size = made.get(icon.src);
      expect(size, icon.src).toBeDefined();
      expect(icon.sizes).toBe(`${size}x${size}`);
    }
    expect(manifest.icons.filter((i) => i.purpose === 'maskable').map((i) => i.src)).toEqual(['icon-maskable-512.png']);
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });
});

describe('helpers', () => {
  it('finds the background colour and refuses a source without one', () => {
    expect(backgroundOf(SOURCE)).toBe('#1f4e79');
    expect(() => backgroundOf('<svg viewBox="0 0 1 1"><g/></svg>')).toThrow(/background/);
  });

  it('refuses a source that is not one svg element with a viewBox', () => {
    expect(() => fullBleedSvg('<svg width="10"></svg>', '#000', 0.8)).toThrow(/viewBox/);
  });

  it('writes an ico header that points at the png', () => {
    const ico = pngToIco(new Uint8Array([1, 2, 3]), 256);
    expect(ico[6]).toBe(0);
    expect(new DataView(ico.buffer).getUint32(14, true)).toBe(3);
    expect([...ico.slice(22)]).toEqual([1, 2, 3]);
  });
});
