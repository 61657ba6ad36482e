// Character classes of regular expressions as plain tests, for code that scans names from files
// once, left to right, instead of running an expression that backtracks over them.

/** `\d`: an ASCII digit. */
export function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** `\w`: an ASCII letter or digit, or `_`. */
export function isWordCode(code: number): boolean {
  return (
    isDigitCode(code) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f
  );
}

/** Where the run of `\w` characters of `text` from `start` ends (`start` when there is none). */
export function wordEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && isWordCode(text.charCodeAt(i))) i++;
  return i;
}
