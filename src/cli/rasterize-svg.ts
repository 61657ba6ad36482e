// SVG text -> PNG bytes with resvg (a Rust SVG renderer shipped as prebuilt native packages on
// npm, so it installs without downloads and runs without a browser). Loaded on first use, so
// the other commands never pay for (or depend on) the native module.

import { createRequire } from 'node:module';

type ResvgModule = typeof import('@resvg/resvg-js');

export interface RasterizeOptions {
  /** Size of the SVG document in CSS pixels (its width/height attributes). */
  width: number;
  height: number;
  /** Image pixels per CSS pixel. */
  scale: number;
}

export interface RasterImage {
  png: Uint8Array;
  width: number;
  height: number;
}

/** Fonts that text falls back to where the SVG's own families are missing (Linux CI boxes). */
const FALLBACK_FONT = 'DejaVu Sans';

export function rasterizeSvg(svg: string, options: RasterizeOptions): RasterImage {
  // A CommonJS native addon: required, not imported, and kept out of the bundle (vite.cli.config.ts).
  const { Resvg } = createRequire(import.meta.url)('@resvg/resvg-js') as ResvgModule;
  const width = Math.max(1, Math.round(options.width * options.scale));
  const height = Math.max(1, Math.round(options.height * options.scale));
  // Exactly width × height pixels: the document is stretched from its viewBox, whatever rounding
  // a zoom factor would bring.
  const sized = svg.replace(
    /^(<svg\b[^>]*?)\swidth="[^"]*"\s+height="[^"]*"/,
    `$1 width="${width}" height="${height}" preserveAspectRatio="none"`,
  );
  const resvg = new Resvg(sized, {
    font: {
      loadSystemFonts: true,
      defaultFontFamily: FALLBACK_FONT,
      sansSerifFamily: FALLBACK_FONT,
      monospaceFamily: 'DejaVu Sans Mono',
    },
    shapeRendering: 2,
    textRendering: 1,
    imageRendering: 0,
  });
  const image = resvg.render();
  return { png: new Uint8Array(image.asPng()), width: image.width, height: image.height };
}
