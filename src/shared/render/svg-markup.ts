// Small helpers for writing SVG as text: escaping, compact numbers, rough text widths. The
// renderers build strings, not DOM nodes, so the same code runs in Node (CLI) and the browser.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value made safe for XML; characters XML 1.0 forbids are dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, (character) => ESCAPES[character]!)
  );
}

/** A coordinate with at most one decimal ("12", "12.5", "-0.3"), never "-0" or exponents. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const rounded = Math.round(value * 10) / 10;
  if (Object.is(rounded, -0) || rounded === 0) return '0';
  return String(rounded);
}

export { fitText, textWidth } from '../chart/text-width';

export interface TextOptions {
  x: number;
  y: number;
  fill: string;
  size?: number;
  anchor?: 'start' | 'middle' | 'end';
  weight?: 'normal' | 'bold';
  family?: string;
  opacity?: number;
}

export function svgText(text: string, options: TextOptions): string {
  const attributes = [`x="${num(options.x)}"`, `y="${num(options.y)}"`, `fill="${options.fill}"`];
  if (options.size !== undefined) attributes.push(`font-size="${options.size}"`);
  if (options.anchor !== undefined && options.anchor !== 'start')
    attributes.push(`text-anchor="${options.anchor}"`);
  if (options.weight === 'bold') attributes.push('font-weight="bold"');
  if (options.family !== undefined) attributes.push(`font-family="${escapeXml(options.family)}"`);
  if (options.opacity !== undefined && options.opacity < 1)
    attributes.push(`fill-opacity="${options.opacity}"`);
  return `<text ${attributes.join(' ')}>${escapeXml(text)}</text>`;
}

/** Opening tag of a standalone SVG document of width × height user units. */
export function svgOpen(width: number, height: number, fontFamily: string, title: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(width)}" height="${num(height)}" ` +
    `viewBox="0 0 ${num(width)} ${num(height)}" font-family="${escapeXml(fontFamily)}" font-size="11">` +
    `<title>${escapeXml(title)}</title>`
  );
}

/**
 * A path outlining a step function over pixel columns: y(column) held across each column, drawn
 * with H/V commands and runs of equal values merged.
 */
export function stepPathData(
  columnYs: ArrayLike<number>,
  columnWidth: number,
  x0: number,
  baseY: number | null,
): string {
  const columns = columnYs.length;
  if (columns === 0) return '';
  const parts: string[] = [];
  let currentY = num(columnYs[0]!);
  if (baseY === null) parts.push(`M${num(x0)} ${currentY}`);
  else parts.push(`M${num(x0)} ${num(baseY)}V${currentY}`);
  for (let column = 1; column < columns; column++) {
    const y = num(columnYs[column]!);
    if (y === currentY) continue;
    parts.push(`H${num(x0 + column * columnWidth)}V${y}`);
    currentY = y;
  }
  parts.push(`H${num(x0 + columns * columnWidth)}`);
  if (baseY !== null) parts.push(`V${num(baseY)}Z`);
  return parts.join('');
}

/** Where a chart's plot sits in the document, in user units. */
export interface SvgPlot {
  left: number;
  top: number;
  width: number;
  height: number;
}
