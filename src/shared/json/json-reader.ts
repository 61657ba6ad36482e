// A streaming JSON reader: bytes go in, chunk by chunk and cut anywhere, and a visitor gets the
// document's events (a dict or a list opens, a key, a value, a container closes) with the byte
// offset of each, so a consumer keeps only what it needs: a file of any size takes memory for
// what the consumer keeps, not for the text or a tree of it.
//
// Hand-written rather than JSON.parse or a library: the limits of ../limits/input-limits.ts are
// enforced before anything is allocated (a list of a million empty lists is refused after its
// first 262,144, at the byte where it goes over, not after it was built), every refusal says
// where (the byte and the path, `device_traces[0][12].frames[3]`), and JSON.parse wants the whole
// text as one string, which a JS engine caps at 512 M characters.

import { groupDigits } from '../errors/unreadable-input';
import {
  containerBudgetAt,
  MAX_NESTING_DEPTH,
  MAX_PAYLOAD_BYTES,
  MEMORY_SNAPSHOT,
  MIN_CONTAINER_BUDGET,
  nestedTooDeep,
  payloadTooLong,
  tooManyContainers,
  type DocumentWords,
} from '../limits/input-limits';
import { JsonInputError } from './json-error';
import { SHORT_STRING_BYTES, ShortStrings } from './short-strings';

export type JsonScalar = string | number | boolean | null;

/** What a consumer of the reader is told, in document order. */
export interface JsonVisitor {
  openObject(offset: number): void;
  /** A key of the dict now open; its value comes next. */
  key(name: string, offset: number): void;
  closeObject(offset: number): void;
  openArray(offset: number): void;
  closeArray(offset: number): void;
  /** A string, number, true, false or null. */
  value(value: JsonScalar, offset: number): void;
}

export interface JsonReaderOptions {
  /** What the file should be, in refusals (default: a memory snapshot). */
  document?: DocumentWords;
}

/** Digits, sign, point and exponent of one number: more is no number a file needs. */
export const MAX_NUMBER_CHARS = 1024;

// What may come next, outside a token.
const VALUE = 0; // a value: at the start, after ':', after ',' in a list
const VALUE_OR_CLOSE = 1; // after '['
const KEY_OR_CLOSE = 2; // after '{'
const KEY = 3; // after ',' in a dict
const COLON = 4;
const COMMA_OR_CLOSE = 5;
const END = 6; // after the top-level value: white space only

// A token cut by a chunk boundary.
const NO_TOKEN = 0;
const IN_STRING = 1;
const IN_NUMBER = 2;
const IN_LITERAL = 3;

// Where a string is, between its quotes.
const PLAIN = 0;
const AFTER_BACKSLASH = 1;
// 2..5: that many hex digits of \uXXXX read, plus 2.
const HEX_FIRST = 2;
const HEX_LAST = 5;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const TRUE = Uint8Array.from([0x74, 0x72, 0x75, 0x65]);
const FALSE = Uint8Array.from([0x66, 0x61, 0x6c, 0x73, 0x65]);
const NULL = Uint8Array.from([0x6e, 0x75, 0x6c, 0x6c]);
const BYTE_ORDER_MARK = Uint8Array.from([0xef, 0xbb, 0xbf]);
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const utf8 = new TextDecoder('utf-8');

export class JsonReader {
  private readonly visitor: JsonVisitor;
  private readonly document: DocumentWords;
  private state = VALUE;
  private token = NO_TOKEN;
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private depth = 0;
  /** Per depth (1 is the top-level container): 1 for a dict, 0 for a list. */
  private readonly isObject = new Uint8Array(MAX_NESTING_DEPTH + 1);
  /** Per depth: the current key of a dict, the current index of a list. */
  private readonly keys: (string | undefined)[] = [];
  private readonly indexes = new Float64Array(MAX_NESTING_DEPTH + 1);
  private containers = 0;
  private containerBudget = MIN_CONTAINER_BUDGET;
  private readonly shortStrings = new ShortStrings();

  /** Absolute offset of the token in progress (its quote, first digit or letter). */
  private tokenStart = 0;
  private stringIsKey = false;
  private stringBytes = new Uint8Array(1 << 10);
  private stringLength = 0;
  private stringEscaped = false;
  private stringHigh = false;
  private escape = PLAIN;
  private readonly numberBytes = new Uint8Array(MAX_NUMBER_CHARS);
  private numberLength = 0;
  private literal: Uint8Array = TRUE;
  private literalAt = 0;

  constructor(visitor: JsonVisitor, options: JsonReaderOptions = {}) {
    this.visitor = visitor;
    this.document = options.document ?? MEMORY_SNAPSHOT;
  }

  /** Bytes read so far. */
  get bytesRead(): number {
    return this.base;
  }

  /** Where the reader is: `device_traces[0][12].frames[3]`; '' at the top level. */
  path(): string {
    let out = '';
    for (let d = 1; d <= this.depth; d++) {
      if (this.isObject[d] === 1) {
        const key = this.keys[d];
        if (key !== undefined) out += keyPath(key, out === '');
      } else if (this.indexes[d]! >= 0) {
        out += `[${this.indexes[d]}]`;
      }
    }
    return out;
  }

  feed(chunk: Uint8Array): void {
    let i = 0;
    if (this.base === 0 && chunk.length > 0 && chunk[0] === BYTE_ORDER_MARK[0]) {
      this.startLiteral(BYTE_ORDER_MARK, 0);
    }
    if (this.token !== NO_TOKEN) i = this.continueToken(chunk);
    if (this.token === NO_TOKEN) this.scan(chunk, i);
    this.base += chunk.length;
  }

  /** After the last chunk: the document must be complete. */
  finish(): void {
    if (this.token === IN_NUMBER) {
      this.token = NO_TOKEN;
      this.scalar(this.numberOf(this.numberBytes, 0, this.numberLength), this.tokenStart);
    }
    if (this.token === IN_STRING) this.syntax('the file ends inside a string', this.base);
    if (this.token === IN_LITERAL) {
      if (this.literal === BYTE_ORDER_MARK) this.syntax('the file is empty', this.base);
      this.syntax('the file ends inside a word', this.base);
    }
    if (this.state !== END) {
      this.syntax(
        this.base === 0 && this.depth === 0
          ? 'the file is empty'
          : 'the file ends before the JSON is complete',
        this.base,
      );
    }
  }

  // --- between tokens -------------------------------------------------------------------------

  private scan(chunk: Uint8Array, from: number): void {
    const n = chunk.length;
    let i = from;
    while (i < n) {
      const c = chunk[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      switch (this.state) {
        case VALUE_OR_CLOSE:
          if (c === 0x5d) {
            this.close(this.base + i);
            i++;
            break;
          }
          i = this.startValue(chunk, i, c);
          break;
        case VALUE:
          i = this.startValue(chunk, i, c);
          break;
        case KEY_OR_CLOSE:
        case KEY:
          if (c === 0x7d && this.state === KEY_OR_CLOSE) {
            this.close(this.base + i);
            i++;
            break;
          }
          if (c !== QUOTE) {
            this.syntax(
              `expected a key (a string in double quotes)${this.state === KEY_OR_CLOSE ? " or '}'" : ''}, found ${describeByte(c)}`,
              this.base + i,
            );
          }
          this.stringIsKey = true;
          i = this.startString(chunk, i);
          break;
        case COLON:
          if (c !== 0x3a)
            this.syntax(`expected ':' after the key, found ${describeByte(c)}`, this.base + i);
          this.state = VALUE;
          i++;
          break;
        case COMMA_OR_CLOSE: {
          const inObject = this.isObject[this.depth] === 1;
          if (c === 0x2c) {
            this.state = inObject ? KEY : VALUE;
            i++;
            break;
          }
          if (c === (inObject ? 0x7d : 0x5d)) {
            this.close(this.base + i);
            i++;
            break;
          }
          this.syntax(
            `expected ',' or '${inObject ? '}' : ']'}', found ${describeByte(c)}`,
            this.base + i,
          );
          break;
        }
        default:
          this.syntax(`unexpected ${describeByte(c)} after the JSON value`, this.base + i);
      }
      if (this.token !== NO_TOKEN) return;
    }
  }

  /** A value starts at chunk[i] (= c): returns the index after it, or n when it goes on. */
  private startValue(chunk: Uint8Array, i: number, c: number): number {
    const depth = this.depth;
    if (depth > 0 && this.isObject[depth] === 0) this.indexes[depth]!++;
    switch (c) {
      case 0x7b:
        this.open(1, this.base + i);
        return i + 1;
      case 0x5b:
        this.open(0, this.base + i);
        return i + 1;
      case QUOTE:
        this.stringIsKey = false;
        return this.startString(chunk, i);
      case 0x74:
        return this.matchLiteral(chunk, i, this.startLiteral(TRUE, this.base + i));
      case 0x66:
        return this.matchLiteral(chunk, i, this.startLiteral(FALSE, this.base + i));
      case 0x6e:
        return this.matchLiteral(chunk, i, this.startLiteral(NULL, this.base + i));
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.startNumber(chunk, i);
        return this.syntax(`expected a value, found ${describeByte(c)}`, this.base + i);
    }
  }

  private open(object: number, offset: number): void {
    if (this.depth >= MAX_NESTING_DEPTH) {
      this.refuse(nestedTooDeep('the JSON', this.document), offset);
    }
    if (++this.containers > this.containerBudget) {
      this.containerBudget = containerBudgetAt(offset);
      if (this.containers > this.containerBudget) {
        this.refuse(tooManyContainers('lists and dicts', this.document), offset);
      }
    }
    const depth = ++this.depth;
    this.isObject[depth] = object;
    this.keys[depth] = undefined;
    this.indexes[depth] = -1;
    if (object === 1) {
      this.state = KEY_OR_CLOSE;
      this.visitor.openObject(offset);
    } else {
      this.state = VALUE_OR_CLOSE;
      this.visitor.openArray(offset);
    }
  }

  private close(offset: number): void {
    const object = this.isObject[this.depth] === 1;
    this.depth--;
    if (object) this.visitor.closeObject(offset);
    else this.visitor.closeArray(offset);
    this.state = this.depth === 0 ? END : COMMA_OR_CLOSE;
  }

  private scalar(value: JsonScalar, offset: number): void {
    this.visitor.value(value, offset);
    this.state = this.depth === 0 ? END : COMMA_OR_CLOSE;
  }

  private continueToken(chunk: Uint8Array): number {
    switch (this.token) {
      case IN_STRING:
        return this.continueString(chunk, 0);
      case IN_NUMBER:
        return this.continueNumber(chunk);
      default:
        return this.matchLiteral(chunk, 0, this.literalAt);
    }
  }

  // --- strings --------------------------------------------------------------------------------

  /** A string whose quote is at chunk[i]: returns the index after it, or n when it goes on. */
  private startString(chunk: Uint8Array, i: number): number {
    this.tokenStart = this.base + i;
    const start = i + 1;
    const n = chunk.length;
    // The common case: no escape, all in this chunk. Bounded by the longest string allowed.
    const limit = Math.min(n, start + MAX_PAYLOAD_BYTES + 1);
    let high = 0;
    let j = start;
    for (; j < limit; j++) {
      const c = chunk[j]!;
      if (c === QUOTE) {
        this.endString(chunk, start, j, high >= 0x80, false);
        return j + 1;
      }
      if (c === BACKSLASH || c < 0x20) break;
      high |= c;
    }
    this.token = IN_STRING;
    this.stringLength = 0;
    this.stringEscaped = false;
    this.stringHigh = high >= 0x80;
    this.escape = PLAIN;
    return this.continueString(chunk, start);
  }

  /** The bytes of a string from chunk[from] on: returns the index after its quote, or n. */
  private continueString(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    let i = from;
    let escape = this.escape;
    for (; i < n; i++) {
      const c = chunk[i]!;
      if (escape === PLAIN) {
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          escape = AFTER_BACKSLASH;
          this.stringEscaped = true;
        } else if (c < 0x20) {
          this.syntax(
            `a control character (0x${c.toString(16).padStart(2, '0')}) inside a string; JSON writes it as an escape`,
            this.base + i,
          );
        } else if (c >= 0x80) {
          this.stringHigh = true;
        }
      } else if (escape === AFTER_BACKSLASH) {
        if (c === 0x75) escape = HEX_FIRST;
        else if (isEscapeLetter(c)) escape = PLAIN;
        else this.syntax(`'\\${describeChar(c)}' is not an escape JSON knows`, this.base + i - 1);
      } else {
        if (!isHexDigit(c)) {
          this.syntax(
            `expected four hex digits after \\u, found ${describeByte(c)}`,
            this.base + i,
          );
        }
        escape = escape === HEX_LAST ? PLAIN : escape + 1;
      }
    }
    this.escape = escape;
    this.appendString(chunk, from, i);
    if (i === n) return n;
    this.token = NO_TOKEN;
    const bytes = this.stringBytes;
    this.endString(bytes, 0, this.stringLength, this.stringHigh, this.stringEscaped);
    this.shrinkStringBuffer();
    return i + 1;
  }

  private appendString(chunk: Uint8Array, from: number, to: number): void {
    const length = this.stringLength + (to - from);
    if (length > MAX_PAYLOAD_BYTES) {
      this.refuse(
        `a string of more than ${groupDigits(MAX_PAYLOAD_BYTES)} bytes; ${payloadTooLong(this.document)}`,
        this.tokenStart,
      );
    }
    if (length > this.stringBytes.length) {
      let capacity = this.stringBytes.length * 2;
      while (capacity < length) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.stringBytes.subarray(0, this.stringLength));
      this.stringBytes = grown;
    }
    this.stringBytes.set(chunk.subarray(from, to), this.stringLength);
    this.stringLength = length;
  }

  /** A long string's buffer is not kept for the rest of the file. */
  private shrinkStringBuffer(): void {
    if (this.stringBytes.length > 1 << 16) this.stringBytes = new Uint8Array(1 << 10);
  }

  private endString(
    bytes: Uint8Array,
    start: number,
    end: number,
    high: boolean,
    escaped: boolean,
  ): void {
    let text: string;
    if (escaped) {
      // Escapes were checked as they came: JSON.parse of the one string only decodes them.
      text = JSON.parse(`"${utf8.decode(bytes.subarray(start, end))}"`) as string;
    } else if (!high && end - start <= SHORT_STRING_BYTES) {
      text = this.shortStrings.get(bytes, start, end);
    } else {
      text = utf8.decode(bytes.subarray(start, end));
    }
    if (this.stringIsKey) {
      this.keys[this.depth] = text;
      this.state = COLON;
      this.visitor.key(text, this.tokenStart);
    } else {
      this.scalar(text, this.tokenStart);
    }
  }

  // --- numbers and words ----------------------------------------------------------------------

  private startNumber(chunk: Uint8Array, i: number): number {
    this.tokenStart = this.base + i;
    const n = chunk.length;
    const limit = Math.min(n, i + MAX_NUMBER_CHARS + 1);
    let j = i;
    while (j < limit && isNumberByte(chunk[j]!)) j++;
    if (j - i > MAX_NUMBER_CHARS) this.numberTooLong();
    if (j === n) {
      this.numberBytes.set(chunk.subarray(i, j));
      this.numberLength = j - i;
      this.token = IN_NUMBER;
      return n;
    }
    this.scalar(this.numberOf(chunk, i, j), this.tokenStart);
    return j;
  }

  private continueNumber(chunk: Uint8Array): number {
    const n = chunk.length;
    let j = 0;
    while (j < n && isNumberByte(chunk[j]!)) {
      if (this.numberLength === MAX_NUMBER_CHARS) this.numberTooLong();
      this.numberBytes[this.numberLength++] = chunk[j]!;
      j++;
    }
    if (j === n) return n;
    this.token = NO_TOKEN;
    this.scalar(this.numberOf(this.numberBytes, 0, this.numberLength), this.tokenStart);
    return j;
  }

  private numberTooLong(): never {
    return this.refuse(
      `a number of more than ${groupDigits(MAX_NUMBER_CHARS)} characters; the numbers of ${this.document.name} fit in 20`,
      this.tokenStart,
    );
  }

  /** The number written in bytes[start..end), which holds only number characters. */
  private numberOf(bytes: Uint8Array, start: number, end: number): number {
    // Whole numbers of up to 15 digits (sizes, addresses, times) without building a string.
    let i = start;
    const negative = bytes[i] === 0x2d;
    if (negative) i++;
    const digits = end - i;
    if (digits > 0 && digits <= 15 && (bytes[i] !== 0x30 || digits === 1)) {
      let value = 0;
      for (; i < end; i++) {
        const digit = bytes[i]! - 0x30;
        if (digit < 0 || digit > 9) break;
        value = value * 10 + digit;
      }
      if (i === end) return negative ? -value : value;
    }
    const text = String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
    if (!NUMBER_TEXT.test(text)) {
      this.syntax(
        `'${text.length > 24 ? `${text.slice(0, 24)}…` : text}' is not a number`,
        this.tokenStart,
      );
    }
    return Number(text);
  }

  private startLiteral(literal: Uint8Array, offset: number): number {
    this.literal = literal;
    this.literalAt = 0;
    this.tokenStart = offset;
    this.token = IN_LITERAL;
    return 0;
  }

  /** Matches the literal from its byte `at` against chunk[i..]: the index after it, or n. */
  private matchLiteral(chunk: Uint8Array, i: number, at: number): number {
    const literal = this.literal;
    const n = chunk.length;
    let j = i;
    let k = at;
    while (k < literal.length && j < n) {
      if (chunk[j] !== literal[k]) {
        if (literal === BYTE_ORDER_MARK) {
          this.syntax(`expected a value, found ${describeByte(chunk[j]!)}`, this.base + j);
        }
        this.syntax(
          `expected ${literalText(literal)}, found ${describeByte(chunk[j]!)}`,
          this.base + j,
        );
      }
      j++;
      k++;
    }
    this.literalAt = k;
    if (k < literal.length) return n;
    this.token = NO_TOKEN;
    if (literal !== BYTE_ORDER_MARK) {
      this.scalar(literal === TRUE ? true : literal === FALSE ? false : null, this.tokenStart);
    }
    return j;
  }

  // --- refusals -------------------------------------------------------------------------------

  private syntax(reason: string, offset: number): never {
    const path = this.path();
    throw new JsonInputError(
      `not valid JSON: ${reason}${path === '' ? '' : ` in ${path}`}`,
      path,
      offset,
    );
  }

  private refuse(reason: string, offset: number): never {
    const path = this.path();
    throw new JsonInputError(path === '' ? reason : `${path}: ${reason}`, path, offset);
  }
}

function keyPath(key: string, first: boolean): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return first ? key : `.${key}`;
  return `[${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)}]`;
}

function isNumberByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45
  );
}

function isEscapeLetter(c: number): boolean {
  // " \ / b f n r t
  return (
    c === 0x22 ||
    c === 0x5c ||
    c === 0x2f ||
    c === 0x62 ||
    c === 0x66 ||
    c === 0x6e ||
    c === 0x72 ||
    c === 0x74
  );
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function literalText(literal: Uint8Array): string {
  return literal === TRUE ? 'true' : literal === FALSE ? 'false' : 'null';
}

function describeChar(c: number): string {
  return c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
}

function describeByte(c: number): string {
  return c >= 0x20 && c < 0x7f
    ? `'${String.fromCharCode(c)}'`
    : `byte 0x${c.toString(16).padStart(2, '0')}`;
}
