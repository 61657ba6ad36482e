// The one estimate of a label's width, for pictures laid out in src/shared: the canvas and the SVG
// must cut and place labels alike, so neither measures with its own fonts.

/** Rough width of `text` in a proportional sans-serif at `fontSize` (labels need spacing, not pixels). */
export function textWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.58;
}

/** `text` cut (with an ellipsis) to fit about `width` pixels; '' when not even one character fits. */
export function fitText(text: string, width: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= width) return text;
  const characters = Math.floor(width / (fontSize * 0.58)) - 1;
  return characters < 1 ? '' : `${text.slice(0, characters)}…`;
}
