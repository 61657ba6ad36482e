// The CLI's one door to the terminal: everything it prints on stdout and stderr goes through
// here, escaped (shared/format/terminal-safe.ts), so that no command can hand a file's escape
// sequences to the terminal. Lint keeps process.stdout and process.stderr out of the other files.

import { terminalField, terminalSafe } from '@shared/format/terminal-safe';

/** A document or report on stdout: its line feeds and tabs are layout, kept. */
export function printOut(text: string): void {
  process.stdout.write(terminalSafe(text));
}

/** Text on stderr (a stack, the timings): its line feeds are layout, kept. */
export function printErr(text: string): void {
  process.stderr.write(terminalSafe(text));
}

/** One line on stderr: whatever it quotes (a file name, a file's text) stays on that line. */
export function printErrLine(line: string): void {
  process.stderr.write(`${terminalField(line)}\n`);
}

/** A line of progress on stderr, rewritten in place; null where stderr is not a terminal. */
export interface ProgressLine {
  show(text: string): void;
  clear(): void;
}

export function terminalProgressLine(): ProgressLine | null {
  if (process.stderr.isTTY !== true) return null;
  // Carriage return and erase-line: the only control codes written here, ours, never a file's.
  return {
    show: (text) => process.stderr.write(`\r\x1b[K${terminalField(text)}`),
    clear: () => process.stderr.write('\r\x1b[K'),
  };
}

/** `allocscope segments FILE | head`: a reader that stops early is not an error. */
export function exitQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
