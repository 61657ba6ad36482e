// Sentences broken into lines that fit a width, for the exported pictures' paragraphs (the OOM
// verdict). Widths are svg-markup's rough estimate, so lines keep a margin rather than fill it.

import { fitText, textWidth } from './svg-markup';

/** `text` in lines of at most about `width` pixels, at most `maxLines` (the last one cut). */
export function wrapText(text: string, width: number, fontSize: number, maxLines = 8): string[] {
  const words = text.split(/\s+/).filter((word) => word !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(candidate, fontSize) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line !== '') lines.push(line);
  if (lines.length <= maxLines) return lines.map((each) => fitText(each, width, fontSize));
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitText(`${kept[maxLines - 1]!} ${lines[maxLines]!}`, width, fontSize);
  if (!kept[maxLines - 1]!.endsWith('…')) kept[maxLines - 1] += '…';
  return kept;
}
