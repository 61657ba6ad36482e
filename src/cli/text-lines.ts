// The lines of a text report as one text. A line may quote a file's text (a frame, a file name,
// an annotation, a warning naming an unknown action): each is escaped as one field, so that a
// line break or escape sequence inside it is shown, never obeyed, and stays on its line.

import { terminalField } from '@shared/format/terminal-safe';

export function joinLines(lines: readonly string[]): string {
  return lines.map(terminalField).join('\n');
}
