// User metadata and annotation texts are read as JSON when they look like it (PyTorch stores a
// dict given to `_set_memory_metadata` as compact JSON text), so that the panel shows them pretty.
// A file may hold such text on every allocation, nested hundreds of thousands deep: JSON.parse of
// a 900 KB list nested 451,029 deep takes ~230 ms and leaves ~17 MB of garbage, and the details of
// 1,000 live allocations parsed it once each (fuzz campaign seed 20261128, case 14038: 4.4 s, 319
// MiB). So a text is read as JSON only within the nesting a snapshot's reader allows
// (MAX_NESTING_DEPTH: Python's json.dumps stops near 1,000 levels) and MAX_METADATA_JSON_CHARS
// characters, checked before JSON.parse; a text past them is shown as written, saying why; and
// each distinct text is read once per snapshot.

import { groupDigits } from '../errors/unreadable-input';
import { MAX_NESTING_DEPTH } from '../limits/input-limits';
import { derivedKey } from './derived-cache';
import type { AnalyzedSnapshot } from './analyzed-snapshot';

/** Characters of one text read as JSON; a longer one is shown as text (its first 10,000). */
export const MAX_METADATA_JSON_CHARS = 1 << 20;

export interface MetadataJson {
  /** The parsed value; undefined when the text is not JSON or was not read. */
  value: unknown;
  /** Why a text that starts like JSON was not read as JSON (too deep, too long); null otherwise. */
  notRead: string | null;
}

const NOT_JSON: MetadataJson = Object.freeze({ value: undefined, notRead: null });

/** `text` read as JSON when it is JSON within the limits (see the top of this file). */
export function metadataJson(text: string): MetadataJson {
  const first = text.trimStart()[0];
  // Plain words are not JSON; only text that starts like a JSON value is tried.
  if (first === undefined || !'{["-0123456789tfn'.includes(first)) return NOT_JSON;
  if (text.length > MAX_METADATA_JSON_CHARS) {
    return {
      value: undefined,
      notRead: `${groupDigits(text.length)} characters, more than the ${groupDigits(MAX_METADATA_JSON_CHARS)} read as JSON`,
    };
  }
  if (nestedDeeperThan(text, MAX_NESTING_DEPTH)) {
    return {
      value: undefined,
      notRead: `nested more than ${groupDigits(MAX_NESTING_DEPTH)} levels deep`,
    };
  }
  try {
    return { value: JSON.parse(text) as unknown, notRead: null };
  } catch {
    return NOT_JSON;
  }
}

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the brackets and braces of `text` (outside its strings) nest deeper than `limit`: one
 * pass, stopping at the first level past it. For JSON text, the depth JSON.parse would build.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * Characters of text whose reading is kept per snapshot: the parsed values of the texts asked for
 * last, up to this many characters of text in all (a parsed value takes some times its text).
 */
const KEPT_CHARS = 16 << 20;

/** The texts of one snapshot's string table read as JSON, by string id, the latest kept. */
class MetadataJsonCache {
  private readonly byId = new Map<number, MetadataJson>();
  private keptChars = 0;

  constructor(private readonly strings: readonly string[]) {}

  of(id: number): MetadataJson {
    let read = this.byId.get(id);
    if (read !== undefined) {
      // Asked again: the most recent, the last to go.
      this.byId.delete(id);
      this.byId.set(id, read);
      return read;
    }
    const text = this.strings[id] ?? '';
    read = metadataJson(text);
    // A parsed value counts its text's characters; a verdict without one ("not JSON", "not
    // read") holds nothing of the text, and counts none.
    const chars = read.value === undefined ? 0 : text.length;
    this.byId.set(id, read);
    this.keptChars += chars;
    for (const [oldId, old] of this.byId) {
      if (this.keptChars <= KEPT_CHARS || oldId === id) break;
      this.byId.delete(oldId);
      if (old.value !== undefined) this.keptChars -= (this.strings[oldId] ?? '').length;
    }
    return read;
  }
}

const METADATA_JSON = derivedKey<MetadataJsonCache>('metadata read as JSON');

/** String `id` of the snapshot's table (user_metadata, an annotation) read as JSON, once per text. */
export function metadataJsonOf(snapshot: AnalyzedSnapshot, id: number): MetadataJson {
  return snapshot.derived
    .get(METADATA_JSON, () => new MetadataJsonCache(snapshot.strings ?? []))
    .of(id);
}
