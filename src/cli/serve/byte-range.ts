// The one byte range of a Range header (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-`, `bytes=-n`.
// What a browser's fetch or a resumed download sends; several ranges in one header (a multipart
// answer) are not served: such a header is ignored and the whole file sent, as the RFC allows.
// Hand-written because the one library for it (range-parser) is not a dependency of ours, and
// this is its single-range case.

export type RangeAnswer =
  /** Send the whole file (no Range header, or one this server ignores). */
  | { kind: 'whole' }
  /** Send bytes start..end, inclusive (206). */
  | { kind: 'part'; start: number; end: number }
  /** No byte of the file is in the range (416). */
  | { kind: 'unsatisfiable' };

export function byteRangeOf(header: string | undefined, sizeBytes: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (match === null) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // The last n bytes.
    const suffix = Number(last);
    if (suffix === 0 || sizeBytes === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, sizeBytes - suffix), end: sizeBytes - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return { kind: 'whole' }; // invalid: ignored
  if (start >= sizeBytes) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, sizeBytes - 1) };
}
