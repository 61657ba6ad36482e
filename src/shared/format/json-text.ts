// The JSON documents (allocscope.summary/1, report/1, …) as text, on stdout or in a file a user
// may `cat`: JSON.stringify escapes the characters below U+0020 but writes DEL, the C1 controls
// (U+0080–U+009F: U+009B is a terminal's CSI), U+2028/U+2029 and the bidi overrides raw. They
// are written as \u007f, \u009b, … instead: the same JSON when parsed, inert in a terminal.

import { terminalSafe } from './terminal-safe';

/**
 * `value` as JSON text, `indent` spaces deep (0: one line). Only characters inside strings are
 * escaped (outside them JSON.stringify writes nothing but ASCII punctuation, digits, letters,
 * spaces and the line feeds of the layout), each as a JSON \u escape.
 */
export function jsonText(value: unknown, indent = 2): string {
  return terminalSafe(JSON.stringify(value, null, indent));
}
