// What is shown of the user's own data (user_metadata, annotations, compile context, frame
// names): a file may hold a value nested 20,000 deep or a string of 40 MB. Shown bounded, in
// depth (MAX_SHOWN_DEPTH levels, then "…") and length (MAX_SHOWN_CHARS characters, then "…
// (N more characters)"), by loops that never recurse: JSON.stringify recurses once per level
// and throws "Maximum call stack size exceeded" on such a value.

import { countOf } from './plural';

/** Levels of arrays and objects shown; deeper ones are shown as `[…]` or `{…}`. */
export const MAX_SHOWN_DEPTH = 8;
/** Characters shown of one value; the rest is counted. */
export const MAX_SHOWN_CHARS = 10_000;

export interface ShownBounds {
  maxDepth?: number;
  maxChars?: number;
}

/** `text` whole when it is at most `maxChars` long, else its start and how much more there is. */
export function shownText(text: string, maxChars = MAX_SHOWN_CHARS): string {
  return text.length <= maxChars ? text : cutAt(text, maxChars, text.length);
}

/**
 * A JSON value (what JSON.parse gives) as JSON.stringify(value, null, indent) writes it, bounded:
 * arrays and objects deeper than `maxDepth` levels as `[…]` / `{…}`, the text cut after
 * `maxChars` characters with how many more the bounded text has. The same text as
 * JSON.stringify for values within the bounds. Values JSON has no form for (undefined, functions)
 * are written `null`; JSON.parse never gives them.
 */
export function shownJson(value: unknown, indent = 2, bounds: ShownBounds = {}): string {
  const maxDepth = bounds.maxDepth ?? MAX_SHOWN_DEPTH;
  const out = new BoundedText(bounds.maxChars ?? MAX_SHOWN_CHARS);
  const newline = (level: number): string => (indent > 0 ? `\n${' '.repeat(indent * level)}` : '');
  const colon = indent > 0 ? ': ' : ':';
  // The arrays and objects being written, outermost first: a loop instead of recursion.
  const open: OpenContainer[] = [];
  const write = (item: unknown, level: number): void => {
    if (item === null || typeof item !== 'object') {
      out.add(primitiveJson(item));
      return;
    }
    const keys = Array.isArray(item) ? null : Object.keys(item);
    const count = keys === null ? (item as unknown[]).length : keys.length;
    const [start, end] = keys === null ? ['[', ']'] : ['{', '}'];
    if (count === 0) out.add(start + end);
    else if (level > maxDepth) out.add(`${start}…${end}`);
    else {
      out.add(start);
      open.push({ item: item as Record<string, unknown>, keys, count, next: 0, level, end });
    }
  };
  write(value, 1);
  while (open.length > 0) {
    const top = open[open.length - 1]!;
    if (top.next === top.count) {
      open.pop();
      out.add(newline(top.level - 1) + top.end);
      continue;
    }
    const index = top.next++;
    out.add((index > 0 ? ',' : '') + newline(top.level));
    if (top.keys === null) {
      write((top.item as unknown as unknown[])[index], top.level + 1);
    } else {
      const key = top.keys[index]!;
      out.add(JSON.stringify(key) + colon);
      write(top.item[key], top.level + 1);
    }
  }
  return out.text();
}

interface OpenContainer {
  item: Record<string, unknown>;
  /** The object's keys; null for an array. */
  keys: string[] | null;
  count: number;
  next: number;
  level: number;
  end: string;
}

function primitiveJson(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  return 'null';
}

/** Text written piece by piece: kept up to `maxChars`, counted past it. */
class BoundedText {
  private readonly pieces: string[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly maxChars: number) {}

  add(piece: string): void {
    this.total += piece.length;
    if (this.kept > this.maxChars) return;
    this.pieces.push(piece);
    this.kept += piece.length;
  }

  text(): string {
    const text = this.pieces.join('');
    return this.total <= this.maxChars ? text : cutAt(text, this.maxChars, this.total);
  }
}

/** The first `maxChars` characters of `text` (never half a surrogate pair) and "… (N more characters)". */
function cutAt(text: string, maxChars: number, total: number): string {
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const more = total - end;
  return `${text.slice(0, end)}… (${countOf(more, 'more character', 'more characters')})`;
}
