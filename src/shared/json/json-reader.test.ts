import { describe, expect, it } from 'vitest';
import { JsonInputError } from './json-error';
import { JsonReader, MAX_NUMBER_CHARS, type JsonScalar, type JsonVisitor } from './json-reader';

/** Builds the document's value from the reader's events, as JSON.parse would. */
class TreeBuilder implements JsonVisitor {
  root: unknown = undefined;
  private readonly stack: (unknown[] | Record<string, unknown>)[] = [];
  private readonly keys: string[] = [];
  readonly offsets: number[] = [];

  openObject(offset: number): void {
    this.offsets.push(offset);
    this.stack.push({});
  }
  key(name: string): void {
    this.keys[this.stack.length] = name;
  }
  closeObject(): void {
    this.put(this.stack.pop());
  }
  openArray(offset: number): void {
    this.offsets.push(offset);
    this.stack.push([]);
  }
  closeArray(): void {
    this.put(this.stack.pop());
  }
  value(value: JsonScalar, offset: number): void {
    this.offsets.push(offset);
    this.put(value);
  }
  private put(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) this.root = value;
    else if (Array.isArray(top)) top.push(value);
    else {
      // As JSON.parse does: "__proto__" is an own key, not the prototype.
      Object.defineProperty(top, this.keys[this.stack.length]!, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
}

function read(bytes: Uint8Array, chunkSize: number): TreeBuilder {
  const tree = new TreeBuilder();
  const reader = new JsonReader(tree);
  for (let at = 0; at < bytes.length; at += chunkSize) {
    reader.feed(bytes.subarray(at, at + chunkSize));
  }
  reader.finish();
  return tree;
}

function refusal(text: string | Uint8Array, chunkSize = 1 << 20): JsonInputError {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  try {
    read(bytes, chunkSize);
  } catch (error) {
    if (error instanceof JsonInputError) return error;
    throw error;
  }
  throw new Error('read without a refusal');
}

const CHUNK_SIZES = [1, 2, 3, 7, 64, 1 << 20];
const long = 'x'.repeat(300);

describe('JsonReader', () => {
  it.each([
    '{"a": [1, -2.5e3, 0, -0, 1E+2, 0.125, 123456789012345678901234567890, true, false, null]}',
    '[{}, [], [[]], {"": ""}, {"a": {"b": {"c": []}}}]',
    '"caf\\u00e9 \\ud83d\\ude00 \\"quoted\\" \\\\ \\/ \\b\\f\\n\\r\\t"',
    '"été ∑ 😀 — UTF-8 as is"',
    `{"long": "${long}", "long and escaped": "${long}\\n${long}", "${long}": 1}`,
    '  \n\t{ "spaced" : [ 1 , 2 ] }  \r\n',
    '12345',
    '-1.5e-7',
    '{"__proto__": {"polluted": true}, "a": 1, "a": 2}',
    '[9007199254740993, 1e400, -1e400, 999999999999999, 9999999999999999]',
  ])('reads %s as JSON.parse does, at every chunk size', (text) => {
    const bytes = new TextEncoder().encode(text);
    const expected: unknown = JSON.parse(text);
    for (const size of CHUNK_SIZES) {
      expect(read(bytes, size).root, `chunks of ${size} B`).toEqual(expected);
    }
  });

  it('skips a UTF-8 byte order mark and gives each value its byte', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('[1, "é", {}]')]);
    for (const size of CHUNK_SIZES) {
      const tree = read(bytes, size);
      expect(tree.root).toEqual([1, 'é', {}]);
      expect(tree.offsets).toEqual([3, 4, 7, 13]);
    }
  });

  it('returns the same string object for a short string each time it recurs', () => {
    const tree = read(
      new TextEncoder().encode('[{"frames": "train.py"}, {"frames": "train.py"}]'),
      1 << 20,
    );
    const [a, b] = tree.root as { frames: string }[];
    expect(a!.frames).toBe(b!.frames);
  });

  it.each([
    ['{"a": }', 6, /^not valid JSON: expected a value, found '}' in a \(at byte 6\)$/],
    ['[1, 2', 5, /^not valid JSON: the file ends before the JSON is complete in \[1\] \(at/],
    ['{"a": [1, {"b": tru}]}', 19, /expected true, found '}' in a\[1\]\.b \(at byte 19\)$/],
    ['["a\u0001"]', 3, /a control character \(0x01\) inside a string/],
    [`["${long}\u0001"]`, 302, /a control character \(0x01\) inside a string/],
    ['["\\x"]', 2, /'\\x' is not an escape JSON knows/],
    ['["\\u12G4"]', 6, /expected four hex digits after \\u, found 'G'/],
    ['[1.]', 1, /'1\.' is not a number/],
    ['[] []', 3, /unexpected '\[' after the JSON value/],
    ['', 0, /the file is empty/],
  ])('refuses %j at byte %i', (text, offset, message) => {
    for (const size of CHUNK_SIZES) {
      const error = refusal(text, size);
      expect(error.offset, `chunks of ${size} B`).toBe(offset);
      expect(error.message).toMatch(message);
    }
  });

  it('names the path of a key that is not a valid name in brackets', () => {
    expect(refusal('{"a b": [{"c": x}]}').message).toMatch(/ in \["a b"\]\[0\]\.c \(at byte 15\)$/);
  });

  it('refuses lists and dicts past one per 8 bytes read, at the first one over', () => {
    const count = (1 << 18) + 1;
    const text = `[${'[],'.repeat(count)}[]]`;
    const error = refusal(text, 4099);
    expect(error.message).toBe(
      // The top-level list is the first of the 262,144: its item 262,143 is one too many.
      '[262143]: more lists and dicts than a memory snapshot holds (past the first 262,144, a snapshot takes 8 bytes or more of file for each) (at byte 786430)',
    );
    // The same number of containers, spread over enough bytes, is read.
    const spread = `[${`[${' '.repeat(6)}],`.repeat(count)}[]]`;
    expect(() => read(new TextEncoder().encode(spread), 1 << 16)).not.toThrow();
  });

  it('refuses nesting deeper than 4,096 levels, a path of thousands of levels shortened', () => {
    const error = refusal('['.repeat(5000));
    expect(error.offset).toBe(4096);
    expect(error.message).toMatch(
      /^\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]…\(4,084 levels\)…\[0\]\[0\]\[0\]\[0\]: the JSON is nested more than 4,096 levels deep/,
    );
    expect(() =>
      read(new TextEncoder().encode(`${'['.repeat(4096)}${']'.repeat(4096)}`), 7),
    ).not.toThrow();
  });

  it('refuses a string over 64 MiB as soon as it is, and a number over 1,024 characters', () => {
    const huge = new Uint8Array((64 << 20) + 16).fill(0x61);
    huge.set(new TextEncoder().encode('{"k": "'));
    const error = refusal(huge, 1 << 20);
    expect(error.message).toMatch(
      /^k: a string of more than 67,108,864 bytes; no field of a memory snapshot is longer than 67,108,864 bytes \(at byte 6\)$/,
    );
    const digits = '1'.repeat(MAX_NUMBER_CHARS + 1);
    for (const size of [7, 1 << 20]) {
      expect(refusal(`[${digits}]`, size).message).toMatch(
        /^\[0\]: a number of more than 1,024 characters; .* \(at byte 1\)$/,
      );
    }
    expect(read(new TextEncoder().encode(`[${'1'.repeat(MAX_NUMBER_CHARS)}]`), 7).root).toEqual([
      Number('1'.repeat(MAX_NUMBER_CHARS)),
    ]);
  });
});
