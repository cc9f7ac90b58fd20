/// <reference types="node" />
/**
 * The app's PNG icons, rendered at build time from the one source SVG (public/icon.svg) with
 * resvg-wasm, so no binary image is committed and a change to the mark changes every icon.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';

/** How one output file is drawn from the source. */
export interface IconSpec {
  fileName: string;
  size: number;
  /**
   * `as-is`: the source with its own rounded background (manifest `any`, favicons).
   * `full-bleed`: the source shrunk to `scale` on a square of the background colour, so a
   * platform's mask (circle, squircle) never cuts into the mark (manifest `maskable`, iOS).
   */
  layout: { kind: 'as-is' } | { kind: 'full-bleed'; scale: number };
}

/**
 * A maskable icon's safe zone is the centred circle of 80 % of its width; at 0.8 the source's
 * own mark (which stays within its central 70 %) is well inside it.
 */
export const ICONS: readonly IconSpec[] = [
  { fileName: 'icon-192.png', size: 192, layout: { kind: 'as-is' } },
  { fileName: 'icon-512.png', size: 512, layout: { kind: 'as-is' } },
  { fileName: 'icon-maskable-512.png', size: 512, layout: { kind: 'full-bleed', scale: 0.8 } },
  // iOS masks the icon itself and shows transparency as black: full-bleed, less padding.
  { fileName: 'apple-touch-icon.png', size: 180, layout: { kind: 'full-bleed', scale: 0.9 } },
  { fileName: 'favicon-32.png', size: 32, layout: { kind: 'as-is' } },
];

export const FAVICON_ICO = 'favicon.ico';

interface ParsedSvg {
  viewBox: string;
  inner: string;
}

function parseSvg(svg: string): ParsedSvg {
  const match = /<svg\b([^>]*)>([\s\S]*)<\/svg>\s*$/.exec(svg.trim());
  const viewBox = match?.[1] ? /\bviewBox="([^"]+)"/.exec(match[1])?.[1] : undefined;
  if (!match || viewBox === undefined) throw new Error('icon.svg must be one <svg> element with a viewBox');
  return { viewBox, inner: match[2] ?? '' };
}

/** The source on a full square of `background`, scaled about its centre. */
export function fullBleedSvg(svg: string, background: string, scale: number): string {
  const { viewBox, inner } = parseSvg(svg);
  const offset = ((1 - scale) / 2) * 100;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" fill="${background}"/>` +
    `<svg x="${offset}" y="${offset}" width="${scale * 100}" height="${scale * 100}" viewBox="${viewBox}">${inner}</svg>` +
    `</svg>`
  );
}

let ready: Promise<void> | undefined;

/** resvg-wasm may be initialised once per process; every render waits for that one start. */
function initResvg(): Promise<void> {
  ready ??= (() => {
    const require = createRequire(import.meta.url);
    return initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
  })();
  return ready;
}

export async function renderPng(svg: string, size: number): Promise<Uint8Array> {
  await initResvg();
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } });
  const image = resvg.render();
  try {
    if (image.width !== size || image.height !== size) throw new Error(`icon rendered at ${image.width}×${image.height}, expected ${size}×${size}: the source must be square`);
    return image.asPng();
  } finally {
    image.free();
    resvg.free();
  }
}

/** An .ico holding one PNG image (allowed since Windows Vista; every browser reads it). */
export function pngToIco(png: Uint8Array, size: number): Uint8Array {
  const ico = new Uint8Array(6 + 16 + png.byteLength);
  const view = new DataView(ico.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  view.setUint8(6, size >= 256 ? 0 : size); // 0 means 256
  view.setUint8(7, size >= 256 ? 0 : size);
  view.setUint16(10, 1, true); // colour planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, png.byteLength, true);
  view.setUint32(18, 22, true); // offset of the image data
  ico.set(png, 22);
  return ico;
}

/** The fill of the source's first shape, its background: the colour a full-bleed icon extends. */
export function backgroundOf(svg: string): string {
  const fill = /<(?:rect|circle|path)\b[^>]*\bfill="(#[0-9a-fA-F]{3,8})"/.exec(svg)?.[1];
  if (fill === undefined) throw new Error('icon.svg must start with a background shape with a #hex fill');
  return fill;
}

/** Every generated icon file, by file name. */
export async function renderIcons(svg: string): Promise<Map<string, Uint8Array>> {
  const background = backgroundOf(svg);
  const out = new Map<string, Uint8Array>();
  for (const spec of ICONS) {
    const source = spec.layout.kind === 'as-is' ? svg : fullBleedSvg(svg, background, spec.layout.scale);
    out.set(spec.fileName, await renderPng(source, spec.size));
  }
  const favicon = out.get('favicon-32.png');
  if (favicon) out.set(FAVICON_ICO, pngToIco(favicon, 32));
  return out;
}
