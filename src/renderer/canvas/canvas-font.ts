// The font of the text the canvas charts draw: the page's UI font, so labels on a chart read as
// the text around it.

const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export function canvasFont(sizePx: number): string {
  return `${sizePx}px ${FONT_FAMILY}`;
}
