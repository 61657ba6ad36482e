// Short ASCII strings (keys, action names, file and function names) come back as the same string
// object each time they recur: a direct-mapped cache by a hash of the bytes. A JSON file repeats
// them by the million (it has no memo), and one object per distinct text spares the allocations,
// lets V8 keep each one's hash, and lets consumers compare by identity first.

const SLOTS = 1 << 14;
/** Longer strings are rarely repeated often enough to pay for the hashing. */
export const SHORT_STRING_BYTES = 128;

export class ShortStrings {
  private readonly table = new Array<string | undefined>(SLOTS).fill(undefined);

  /** The string of the ASCII bytes[start..end) (at most SHORT_STRING_BYTES). */
  get(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    let hash = 0x811c9dc5 ^ length;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
    const slot = (hash ^ (hash >>> 15)) & (SLOTS - 1);
    const cached = this.table[slot];
    if (cached !== undefined && cached.length === length) {
      let same = true;
      for (let i = 0; i < length; i++) {
        if (cached.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return cached;
    }
    const text = String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
    this.table[slot] = text;
    return text;
  }
}
