// The search box and `allocscope top --grep`: text or a regular expression over the frames of
// the stacks ("filename:line name", so "attention.py", "model.py:62", "forward" and
// "AccumulateGrad" all find what they name), or a hex address (the allocations whose block
// holds it). Frames and stacks are tested (thousands), then allocations are a lookup by stack:
// a keystroke costs the same on 1M allocations as on 1,000.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { compileUserRegex } from '../format/user-regex';
import { NO_STACK_TEXT } from '../format/words';
import type { FrameTable } from '../snapshot/model';
import { frameSearchText } from './classify';

export interface SearchQuery {
  text: string;
  /**
   * The text is a regular expression in RE2's syntax (../format/user-regex.ts), else a plain
   * substring. Both ignore case.
   */
  regex: boolean;
}

export type CompiledSearch =
  | { kind: 'none' }
  | { kind: 'invalid'; message: string }
  | { kind: 'text'; test: (text: string) => boolean }
  | { kind: 'address'; address: number };

const HEX_ADDRESS = /^0x[0-9a-f]{1,13}$/i;

export function compileSearch(query: SearchQuery): CompiledSearch {
  const text = query.text.trim();
  if (text === '') return { kind: 'none' };
  if (HEX_ADDRESS.test(text)) return { kind: 'address', address: Number.parseInt(text, 16) };
  if (query.regex) {
    // RE2's linear-time engine: a keystroke never backtracks for minutes on the main thread.
    const compiled = compileUserRegex(text, { ignoreCase: true });
    if (!compiled.ok) return { kind: 'invalid', message: compiled.message };
    return { kind: 'text', test: compiled.regex.test };
  }
  const needle = text.toLowerCase();
  return { kind: 'text', test: (candidate) => candidate.toLowerCase().includes(needle) };
}

// The text of every frame, built once per frame table: every keystroke tests them all.
const frameTexts = new WeakMap<FrameTable, readonly string[]>();

function frameTextsOf(frames: FrameTable): readonly string[] {
  let texts = frameTexts.get(frames);
  if (texts === undefined) {
    texts = Array.from(frames.name, (name, id) =>
      frameSearchText(frames.filename[id]!, frames.line[id]!, name),
    );
    frameTexts.set(frames, texts);
  }
  return texts;
}

/** Per stack id: 1 when some frame of the stack matches (no-stack allocations match their words). */
export function matchingStacks(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  test: (text: string) => boolean,
): Uint8Array {
  const { stacks } = snapshot;
  const texts = frameTextsOf(snapshot.frames);
  const frameCount = texts.length;
  const frameMatches = new Uint8Array(frameCount);
  for (let id = 0; id < frameCount; id++) if (test(texts[id]!)) frameMatches[id] = 1;
  const stackCount = stacks.offsets.length - 1;
  const result = new Uint8Array(stackCount);
  for (let s = 0; s < stackCount; s++) {
    for (let i = stacks.offsets[s]!; i < stacks.offsets[s + 1]!; i++) {
      if (frameMatches[stacks.frameIds[i]!] === 1) {
        result[s] = 1;
        break;
      }
    }
  }
  return result;
}

/** Per allocation row of `device`: 1 when it matches (all 0 for 'none' and 'invalid'). */
export function matchingRows(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  device: Pick<AnalyzedDevice, 'allocations'>,
  search: CompiledSearch,
): Uint8Array {
  const table = device.allocations;
  const mask = new Uint8Array(table.count);
  if (search.kind === 'address') {
    for (let row = 0; row < table.count; row++) {
      const start = table.address[row]!;
      const block = table.blockSizeBytes[row]!;
      const size = Math.max(1, Number.isNaN(block) ? table.sizeBytes[row]! : block);
      if (search.address >= start && search.address < start + size) mask[row] = 1;
    }
    return mask;
  }
  if (search.kind !== 'text') return mask;
  const stacks = matchingStacks(snapshot, search.test);
  const noStackMatches = search.test(NO_STACK_TEXT);
  for (let row = 0; row < table.count; row++) {
    const stackId = table.stackId[row]!;
    if (stackId < 0 ? noStackMatches : stacks[stackId] === 1) mask[row] = 1;
  }
  return mask;
}

export interface MatchedCurve {
  /** Bytes held by matching allocations after each event. */
  bytes: Float64Array;
  /** Before the first event. */
  baselineBytes: number;
}

/** Bytes of the matching allocations over time, on the timeline's events (one sweep). */
export function matchedBytesCurve(
  device: Pick<AnalyzedDevice, 'allocations' | 'traceLength'>,
  mask: Uint8Array,
): MatchedCurve {
  const table = device.allocations;
  const length = device.traceLength;
  // One array: the changes at each event first, then their running sum in place (a keystroke on
  // a 4M-event trace allocates 31 MB, not twice that).
  const bytes = new Float64Array(length);
  let baselineBytes = 0;
  for (let row = 0; row < table.count; row++) {
    if (mask[row] !== 1) continue;
    const size = table.sizeBytes[row]!;
    const start = table.startEvent[row]!;
    const end = Math.min(table.endEvent[row]!, length);
    if (start < 0) baselineBytes += size;
    else bytes[start]! += size;
    if (end < length) bytes[end]! -= size;
  }
  let running = baselineBytes;
  for (let event = 0; event < length; event++) {
    running += bytes[event]!;
    bytes[event] = running;
  }
  return { bytes, baselineBytes };
}
