// What a stream that does not start with PROTO is, when it is a pickle at all: protocols 0 and 1
// (the text protocol and its first binary extension) have no PROTO opcode. A snapshot is never
// written that way, but a hostile file may be, and "expected a pickle" would hide what it is.
// The opcodes are walked (with a count of the stack and the marks, so that random text is not
// mistaken for a pickle) until one loads Python code, the pickle ends, or the bytes stop being a
// pickle. Only the head of the file is looked at.

import { CODE_LOADING_OPCODES } from './opcodes';
import { CodeLoadingRefusedError, PickleError } from './pickle-error';

/** Opcode bytes of protocols 0 and 1, by how their argument is written. */
const LINE_ARGUMENT = new Set([0x49, 0x4c, 0x53, 0x56, 0x46, 0x67, 0x70, 0x50]); // I L S V F g p P
const TWO_LINE_ARGUMENT = new Set([0x63, 0x69]); // c (GLOBAL), i (INST)
const FIXED_ARGUMENT = new Map([
  [0x4a, 4], // BININT
  [0x4b, 1], // BININT1
  [0x4d, 2], // BININT2
  [0x68, 1], // BINGET
  [0x6a, 4], // LONG_BINGET
  [0x71, 1], // BINPUT
  [0x72, 4], // LONG_BINPUT
  [0x47, 8], // BINFLOAT
]);
const SIZED_ARGUMENT = new Map([
  [0x54, 4], // BINSTRING
  [0x55, 1], // SHORT_BINSTRING
  [0x58, 4], // BINUNICODE
]);
const PUSHES = new Set([0x4e, 0x7d, 0x5d, 0x29]); // NONE EMPTY_DICT EMPTY_LIST EMPTY_TUPLE

/**
 * The error to report for a head of bytes that does not start with PROTO: code loading named as
 * such, a plain protocol 0/1 pickle named as such, or null when it is not a pickle.
 */
export function describeProtocol0Or1(head: Uint8Array): PickleError | null {
  let depth = 0;
  const marks: number[] = [];
  let pos = 0;
  let opcodes = 0;
  while (pos < head.length) {
    const at = pos;
    const op = head[pos++]!;
    const codeLoading = CODE_LOADING_OPCODES.get(op);
    if (codeLoading !== undefined) {
      // GLOBAL / INST name a class as the very first thing they do: that alone says what the
      // file wants. The others need something on the stack to work on.
      const plausible = op === 0x63 || op === 0x69 || depth >= 1 || marks.length > 0;
      return plausible ? new CodeLoadingRefusedError(codeLoading, at) : null;
    }
    if (LINE_ARGUMENT.has(op)) {
      const end = head.indexOf(0x0a, pos);
      if (end < 0) return opcodes > 0 ? protocol0Or1() : null;
      if (!plausibleLine(op, head, pos, end)) return null;
      pos = end + 1;
      if (op !== 0x70)
        depth += 1; // PUT stores the top; everything else here pushes.
      else if (depth < 1) return null;
    } else if (TWO_LINE_ARGUMENT.has(op)) {
      return null; // handled above as code loading
    } else if (FIXED_ARGUMENT.has(op)) {
      pos += FIXED_ARGUMENT.get(op)!;
      if (op === 0x71 || op === 0x72) {
        if (depth < 1) return null;
      } else {
        depth += 1;
      }
    } else if (SIZED_ARGUMENT.has(op)) {
      const width = SIZED_ARGUMENT.get(op)!;
      if (pos + width > head.length) return protocol0Or1();
      let length = 0;
      for (let i = width - 1; i >= 0; i--) length = length * 256 + head[pos + i]!;
      pos += width + length;
      depth += 1;
    } else if (PUSHES.has(op)) {
      depth += 1;
    } else {
      const mark = marks.length === 0 ? 0 : marks[marks.length - 1]!;
      switch (op) {
        case 0x28: // MARK
          marks.push(depth);
          break;
        case 0x2e: // STOP
          return depth === 1 && marks.length === 0 && opcodes > 0 ? protocol0Or1() : null;
        case 0x61: // APPEND
          if (depth - mark < 2) return null;
          depth -= 1;
          break;
        case 0x73: // SETITEM
          if (depth - mark < 3) return null;
          depth -= 2;
          break;
        case 0x65: // APPENDS
        case 0x75: // SETITEMS
          if (marks.length === 0 || mark < 1) return null;
          depth = marks.pop()!;
          break;
        case 0x64: // DICT
        case 0x6c: // LIST
        case 0x74: // TUPLE
          if (marks.length === 0) return null;
          depth = marks.pop()! + 1;
          break;
        case 0x30: // POP
          if (depth - mark < 1) return null;
          depth -= 1;
          break;
        case 0x31: // POP_MARK
          if (marks.length === 0) return null;
          depth = marks.pop()!;
          break;
        case 0x32: // DUP
          if (depth < 1) return null;
          depth += 1;
          break;
        default:
          return null;
      }
    }
    opcodes += 1;
  }
  return opcodes > 0 ? protocol0Or1() : null;
}

function protocol0Or1(): PickleError {
  return new PickleError(
    'a pickle of protocol 0 or 1 (no PROTO opcode): memory snapshots are pickled with protocol 2 to 5, so this is not one',
    0,
  );
}

/** The argument line of a text opcode looks like what that opcode takes. */
function plausibleLine(op: number, head: Uint8Array, start: number, end: number): boolean {
  const line = String.fromCharCode(...head.subarray(start, Math.min(end, start + 64)));
  switch (op) {
    case 0x49: // INT
    case 0x4c: // LONG
      return /^-?\d+L?$/.test(line);
    case 0x46: // FLOAT
      return /^-?(\d+\.?\d*(e[-+]?\d+)?|inf|nan)$/i.test(line);
    case 0x67: // GET
    case 0x70: // PUT
      return /^\d+$/.test(line);
    case 0x53: // STRING
      return line.startsWith("'") || line.startsWith('"');
    default:
      return true;
  }
}
