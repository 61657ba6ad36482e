// PNG export: the chart's standalone SVG drawn into a canvas at a pixel scale (the device pixel
// ratio or more), then encoded by the browser. The size arithmetic is pure and unit-tested; the
// drawing needs a DOM.

export const PNG_SCALES = [1, 2, 3] as const;
export type PngScale = (typeof PNG_SCALES)[number];

/** The chart size when none is visible (css px). */
export const DEFAULT_CHART_SIZE = { width: 1600, height: 900 } as const;

/** Chromium's limits for one canvas: 32 767 px a side (16 384 in older builds), 2^28 pixels. */
export const MAX_CANVAS_SIDE = 16_384;
export const MAX_CANVAS_PIXELS = 268_435_456;

/** At least 2×, or the screen's own ratio when it is sharper (up to the largest offered). */
export function defaultPngScale(devicePixelRatio: number): PngScale {
  const ratio = Number.isFinite(devicePixelRatio) ? devicePixelRatio : 1;
  return Math.min(3, Math.max(2, Math.ceil(ratio - 0.01))) as PngScale;
}

export interface PixelSize {
  width: number;
  height: number;
  /** The scale used: the one asked for, or less when the canvas would be too large. */
  scale: number;
}

/** The PNG's size for a chart of css size × scale, scaled down only as far as a canvas needs. */
export function pngPixelSize(cssWidth: number, cssHeight: number, scale: number): PixelSize {
  const width = Math.max(1, Math.round(cssWidth));
  const height = Math.max(1, Math.round(cssHeight));
  const fit = Math.min(
    scale,
    MAX_CANVAS_SIDE / width,
    MAX_CANVAS_SIDE / height,
    Math.sqrt(MAX_CANVAS_PIXELS / (width * height)),
  );
  // Whole pixels; a fitted scale is trimmed so rounding never crosses the limits.
  const used = fit < scale ? Math.floor(fit * 1000) / 1000 : scale;
  return {
    width: Math.max(1, Math.round(width * used)),
    height: Math.max(1, Math.round(height * used)),
    scale: used,
  };
}

/** The width and height the root <svg> element declares (css px), or null. */
export function svgSize(svg: string): { width: number; height: number } | null {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (root === undefined) return null;
  const attribute = (name: string): number => {
    const value = new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9.]+)(px)?\\s*["']`, 'i').exec(root);
    return value ? Number(value[1]) : NaN;
  };
  let width = attribute('width');
  let height = attribute('height');
  if (!(width > 0 && height > 0)) {
    const viewBox = /\sviewBox\s*=\s*["']([^"']+)["']/i.exec(root)?.[1];
    const parts =
      viewBox
        ?.trim()
        .split(/[\s,]+/)
        .map(Number) ?? [];
    if (parts.length === 4 && parts[2]! > 0 && parts[3]! > 0) {
      width = parts[2]!;
      height = parts[3]!;
    }
  }
  return width > 0 && height > 0 ? { width, height } : null;
}

/** An <svg> without the SVG namespace will not load as an image; add it where missing. */
export function withSvgNamespace(svg: string): string {
  return /<svg\b[^>]*\sxmlns\s*=/i.test(svg)
    ? svg
    : svg.replace(/<svg\b/i, '<svg xmlns="http://www.w3.org/2000/svg"');
}

/** Draws the SVG at `size` pixels and encodes the canvas as PNG (browser only). */
export async function rasterizeSvg(svg: string, size: PixelSize): Promise<Blob> {
  const url = URL.createObjectURL(
    new Blob([withSvgNamespace(svg)], { type: 'image/svg+xml;charset=utf-8' }),
  );
  try {
    const image = new Image();
    image.decoding = 'async';
    image.src = url;
    try {
      await image.decode();
    } catch {
      throw new Error('the chart could not be drawn as an image');
    }
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no canvas to draw the image on');
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, size.width, size.height);
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be encoded'))),
        'image/png',
      );
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}
