// A picture's title line fitted to its width: a long file name gives up its middle first (the
// device, the figures and the moment after it are what the picture is about; the name's start
// and its end, often a rank or step number, say which file), then the line is cut at its end.

import { fitText, textWidth } from './svg-markup';

/** Fewest characters a shortened file name keeps (with its ellipsis). */
const MIN_NAME = 16;

/** The middle of `name` replaced by "…" so that it is `length` characters long. */
export function shortenMiddle(name: string, length: number): string {
  if (name.length <= length) return name;
  const kept = Math.max(2, length) - 1;
  const head = Math.ceil(kept / 2);
  return `${name.slice(0, head)}…${name.slice(name.length - (kept - head))}`;
}

/** `title`, which holds `fileName`, fitted to about `width` pixels at `fontSize`. */
export function fitTitle(title: string, fileName: string, width: number, fontSize: number): string {
  if (textWidth(title, fontSize) <= width) return title;
  const at = title.indexOf(fileName);
  if (at >= 0 && fileName.length > MIN_NAME) {
    const excess = Math.ceil((textWidth(title, fontSize) - width) / (fontSize * 0.58));
    const name = shortenMiddle(fileName, Math.max(MIN_NAME, fileName.length - excess - 1));
    title = title.slice(0, at) + name + title.slice(at + fileName.length);
  }
  return fitText(title, width, fontSize);
}
