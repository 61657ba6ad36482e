// Text from a snapshot (frame names, file names, user_metadata, annotation and action names) is
// the file author's, and a terminal obeys what it is sent: ESC [2J clears the screen, OSC 0
// retitles the window, OSC 52 writes the clipboard, C1 controls (U+0080–U+009F, the one-byte
// forms of ESC [ and friends) colour text, CR overwrites a line, bidi overrides (U+202E…) show
// characters out of order. Whatever the CLI writes is shown escaped instead, `\x1b`, `\u009b`:
// the same text, visible, driving nothing.
//
// The escapes are JSON's where JSON has them (`\n`, `\t`, `\r`, `\uXXXX` from DEL up), so that
// escaping a JSON text that JSON.stringify wrote (no raw character below U+0020 but its layout
// line breaks) keeps it valid and equal when parsed: see jsonText.

/**
 * What a terminal would obey: the C0 controls but line feed and tab, DEL, C1, the line and
 * paragraph separators, the bidi embeddings, overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same, and line feed and tab: inside one field or one line they are not layout. */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const UNSAFE_IN_FIELD = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/** `\n`, `\t`, `\r`; `\x1b` for the other C0 controls; `\u009b` from DEL up. */
export function escapedCharacter(character: string): string {
  const short = SHORT[character];
  if (short !== undefined) return short;
  const code = character.charCodeAt(0);
  return code < 0x20
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text for a terminal: every control character shown escaped, line feeds and tabs kept (the
 * layout of a multi-line text). What the CLI writes to stdout and stderr goes through this.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapedCharacter);
}

/**
 * One field or one line of text (a frame name, a file name, an error message): as terminalSafe,
 * and its line feeds and tabs escaped too, so that it cannot start a line of its own (a fake
 * "allocscope: …" line) or shift the columns of a table.
 */
export function terminalField(text: string): string {
  return text.replace(UNSAFE_IN_FIELD, escapedCharacter);
}
