// Names of the annotation spans written on the timeline (app and SVG), so they are read without
// hovering: one row of labels per nesting level along the top of the plot, each label cut to
// its span's width (an ellipsis where it is cut) and left out where not even a few characters fit.

/** A span in pixels of the picture. */
export interface SpanInPixels {
  name: string;
  depth: number;
  x0: number;
  x1: number;
}

export interface AnnotationLabel {
  text: string;
  /** Left edge of the text and the row (nesting level) it sits in. */
  x: number;
  depth: number;
  /** The visible part of the span the label belongs to. */
  left: number;
  right: number;
}

/** Nesting levels that get a row of labels. */
export const LABELLED_DEPTHS = 2;
/** Space between a span's edge and its label, in pixels. */
export const LABEL_PADDING = 3;
/** A label is written only where at least this many characters of it fit. */
const MIN_CHARACTERS = 3;
const ELLIPSIS = '…';

/**
 * Labels of the spans that have room, in [0, width]. `measure` gives a text's width in pixels
 * at the label font.
 */
export function annotationLabels(
  spans: readonly SpanInPixels[],
  width: number,
  measure: (text: string) => number,
): AnnotationLabel[] {
  const labels: AnnotationLabel[] = [];
  const minimum = measure('M'.repeat(MIN_CHARACTERS - 1) + ELLIPSIS);
  for (const span of spans) {
    if (span.depth >= LABELLED_DEPTHS) continue;
    const left = Math.max(0, span.x0);
    const right = Math.min(width, span.x1);
    const room = right - left - 2 * LABEL_PADDING;
    if (room < minimum || span.name === '') continue;
    const text = fitText(span.name, room, measure);
    if (text === null) continue;
    labels.push({ text, x: left + LABEL_PADDING, depth: span.depth, left, right });
  }
  return labels;
}

/** The name as it fits in `room` pixels: whole, or its longest start with an ellipsis; null if too little fits. */
export function fitText(
  name: string,
  room: number,
  measure: (text: string) => number,
): string | null {
  // A span's name is the user's text, of any length: no more of it than could fit is measured
  // (a character takes a pixel at least), nor split into characters.
  const most = Math.max(0, Math.ceil(room)) + 1;
  const head = name.length > 2 * most ? name.slice(0, 2 * most) : name;
  const characters = Array.from(head);
  if (head === name && characters.length <= most && measure(name) <= room) return name;
  if (characters.length > most) characters.length = most;
  let low = 0;
  let high = characters.length - 1;
  // The longest prefix whose text plus the ellipsis fits (binary search: width grows with length).
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (measure(characters.slice(0, middle).join('') + ELLIPSIS) <= room) low = middle;
    else high = middle - 1;
  }
  const keep = Math.min(low, characters.length);
  if (keep < Math.min(MIN_CHARACTERS - 1, characters.length)) return null;
  return characters.slice(0, keep).join('') + ELLIPSIS;
}
