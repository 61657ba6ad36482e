// The JSON form of a snapshot: what pytorch.org/memory_viz also accepts (`.json`, `.json.gz`),
// the same keys as the pickle, integers as numbers. It is parsed whole (JSON has no memo to
// stream against, and a JS string bounds it anyway), up to MAX_JSON_BYTES, then fed through the
// same builders as the pickle: trace entries become rows of the TraceTableBuilder, frames and
// stacks are interned by content (JSON shares no objects), the rest goes through the model
// builder and its checks.

import { groupDigits } from '../errors/unreadable-input';
import type { SnapshotModel } from './model';
import { buildSnapshotModel } from './snapshot-builder';
import { SnapshotFormatError } from './snapshot-error';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder } from './trace-table-builder';

/**
 * The largest JSON text read (after gunzip): 256 MiB. A JS string holds at most ~512 M UTF-16
 * units, and a parsed snapshot takes several times its text in memory; the pickle of the same
 * data is ~9x smaller and streams, so larger files are refused with that advice.
 */
export const MAX_JSON_BYTES = 256 << 20;

/** pickleProtocol of a model read from JSON (no pickle protocol). */
export const JSON_FORM_PROTOCOL = 0;

export async function decodeJsonSnapshot(
  chunks: AsyncIterable<Uint8Array>,
): Promise<SnapshotModel> {
  const text = await readJsonText(chunks);
  const root = parseJson(text);
  const stacks = new StackInterner();
  const traceTable = new TraceTableBuilder(stacks);
  if (typeof root === 'object' && root !== null && !Array.isArray(root)) {
    const dict = root as Record<string, unknown>;
    for (const key of ['device_traces', 'traces'] as const) {
      const lists = dict[key];
      if (!Array.isArray(lists)) continue;
      for (const list of lists) if (Array.isArray(list)) consumeEntries(list, traceTable);
    }
    const host = dict.host_traces;
    if (Array.isArray(host)) {
      if (host.some((item) => Array.isArray(item))) {
        for (const list of host) if (Array.isArray(list)) consumeEntries(list, traceTable);
      } else {
        consumeEntries(host, traceTable);
      }
    }
  }
  return buildSnapshotModel({ root, pickleProtocol: JSON_FORM_PROTOCOL, traceTable, stacks });
}

/**
 * Turns the trace entries of `list` into rows, as the pickle's interceptor does, and leaves in the
 * list only what is not a trace entry (the model builder names it).
 */
function consumeEntries(list: unknown[], table: TraceTableBuilder): void {
  const rest: unknown[] = [];
  let consumed = 0;
  const pairs: unknown[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      rest.push(item);
      continue;
    }
    pairs.length = 0;
    for (const key of Object.keys(item)) pairs.push(key, (item as Record<string, unknown>)[key]);
    if (table.consumeDict({}, pairs, 0, pairs.length, -1)) consumed++;
    else rest.push(item);
  }
  if (consumed > 0) table.appendConsumed(list as never, consumed, -1);
  list.length = 0;
  for (const item of rest) list.push(item);
}

async function readJsonText(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    length += chunk.length;
    if (length > MAX_JSON_BYTES) {
      throw new SnapshotFormatError(
        `the JSON form of a snapshot is read up to ${groupDigits(MAX_JSON_BYTES)} bytes; this one is larger: open the .pickle that torch.cuda.memory._dump_snapshot() wrote (the same data, smaller, read as it streams)`,
      );
    }
    parts.push(chunk);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const position = jsonErrorPosition(reason, text);
    const byte =
      position === null || position < 0
        ? -1
        : new TextEncoder().encode(text.slice(0, position)).length;
    throw new SnapshotFormatError(`not valid JSON: ${shortReason(reason)}`, byte);
  }
}

/**
 * Where JSON.parse stopped, in characters: the position V8 names ("at position 12", "line 1
 * column 13"), else where a scan of the text finds the first thing JSON does not allow (newer
 * V8 messages quote the text instead of giving a position).
 */
function jsonErrorPosition(reason: string, text: string): number | null {
  const position = /position (\d+)/.exec(reason);
  if (position !== null) return Number(position[1]);
  const lineColumn = /line (\d+) column (\d+)/.exec(reason);
  if (lineColumn !== null) {
    const line = Number(lineColumn[1]);
    let at = 0;
    for (let l = 1; l < line; l++) {
      const next = text.indexOf('\n', at);
      if (next < 0) break;
      at = next + 1;
    }
    return at + Number(lineColumn[2]) - 1;
  }
  return firstJsonError(text);
}

const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// Control characters (below U+0020) may not stand raw in a JSON string: built from a code
// point range, since the lint refuses them written in a regex literal.
const STRING = new RegExp(
  `"(?:[^"\\\\${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"`,
  'y',
);

/** The position of the first character that makes `text` not JSON (a plain scan, no values). */
export function firstJsonError(text: string): number {
  // What may come next: a value, or after a value: ',' / the container's close / the end.
  const closers: number[] = [];
  let at = 0;
  let expectValue = true;
  // Inside an object: a key is expected before the value.
  const keyNext: boolean[] = [];
  const skip = (): void => {
    while (at < text.length && WHITE.has(text.charCodeAt(at))) at++;
  };
  for (;;) {
    skip();
    if (at >= text.length) return expectValue || closers.length > 0 ? text.length : -1;
    const c = text[at]!;
    if (expectValue) {
      const inObject = closers.length > 0 && closers[closers.length - 1] === 0x7d;
      if (inObject && keyNext[keyNext.length - 1] === true) {
        if (c === '}' && text[at - 1] !== ',' && prevNonWhite(text, at) === '{') {
          at++;
          closers.pop();
          keyNext.pop();
          expectValue = false;
          continue;
        }
        STRING.lastIndex = at;
        if (!STRING.test(text)) return at;
        at = STRING.lastIndex;
        skip();
        if (text[at] !== ':') return at;
        at++;
        keyNext[keyNext.length - 1] = false;
        continue;
      }
      if (c === '{' || c === '[') {
        closers.push(c === '{' ? 0x7d : 0x5d);
        keyNext.push(c === '{');
        at++;
        continue;
      }
      if (c === ']' && prevNonWhite(text, at) === '[') {
        at++;
        closers.pop();
        keyNext.pop();
        expectValue = false;
        continue;
      }
      if (c === '"') {
        STRING.lastIndex = at;
        if (!STRING.test(text)) return at;
        at = STRING.lastIndex;
      } else if (text.startsWith('true', at)) at += 4;
      else if (text.startsWith('false', at)) at += 5;
      else if (text.startsWith('null', at)) at += 4;
      else {
        NUMBER.lastIndex = at;
        if (!NUMBER.test(text)) return at;
        at = NUMBER.lastIndex;
      }
      expectValue = false;
      continue;
    }
    if (closers.length === 0) return at;
    if (c === ',') {
      at++;
      expectValue = true;
      if (closers[closers.length - 1] === 0x7d) keyNext[keyNext.length - 1] = true;
      continue;
    }
    if (c.charCodeAt(0) === closers[closers.length - 1]) {
      at++;
      closers.pop();
      keyNext.pop();
      continue;
    }
    return at;
  }
}

function prevNonWhite(text: string, at: number): string {
  let i = at - 1;
  while (i >= 0 && WHITE.has(text.charCodeAt(i))) i--;
  return i >= 0 ? text[i]! : '';
}

/** V8's reason without the position and the quoted text around it. */
function shortReason(reason: string): string {
  return (
    reason
      .replace(/,? ?".*" is not valid JSON$/s, '')
      .replace(/ (in JSON )?at position \d+.*$/s, '')
      .replace(/ \(line \d+ column \d+\)$/, '')
      .trim() || 'unexpected content'
  );
}
