// How `allocscope html` carries a snapshot inside its one-file page, read back by the page
// (renderer/api/embedded-snapshot.ts). The bytes are gzip (the file's own, or compressed by the
// CLI), in base64 chunks of a few MiB, each in its own non-executing <script> element: no chunk,
// and nothing the page decodes, is ever one string of the whole file (V8 refuses strings past
// ~512 MiB; PyTorch's trace_plot page, one base64 string, breaks past ~400 MB of snapshot). A
// header before the chunks names the file; an end record after them counts them, so a page cut
// short (a truncated download or attachment) says so instead of opening empty. The bytes
// themselves are checked by gzip's own CRC-32 as the page unpacks them.

import { z } from 'zod';

export const EMBEDDED_SNAPSHOT_SCHEMA = 'allocscope.html-snapshot/1';

/** <script type="application/json" id=…>: the header, then the end record. */
export const HEADER_ELEMENT_ID = 'allocscope-snapshot';
export const END_ELEMENT_ID = 'allocscope-snapshot-end';
/** Each chunk's <script type="application/octet-stream" data-allocscope-chunk="N">. */
export const CHUNK_ATTRIBUTE = 'data-allocscope-chunk';
export const CHUNK_TYPE = 'application/octet-stream';

/** Bytes per chunk (a multiple of 3: each chunk's base64 stands alone, 4 MiB of text). */
export const CHUNK_BYTES = 3 << 20;

const openingSchema = z.strictObject({
  device: z.number().int().min(-1).nullable(),
  moment: z.number().int().min(-1).nullable(),
  view: z.string().max(40).nullable(),
});

export const embeddedHeaderSchema = z.strictObject({
  schema: z.literal(EMBEDDED_SNAPSHOT_SCHEMA),
  fileName: z.string().min(1).max(4096),
  /** The file's size as the CLI read it: what the page shows, whatever it carries. */
  fileBytes: z.number().int().nonnegative(),
  opening: openingSchema.nullable(),
});

export const embeddedEndSchema = z.strictObject({
  chunks: z.number().int().nonnegative(),
  /** The bytes carried (gzip), after base64 decoding. */
  embeddedBytes: z.number().int().nonnegative(),
  /** True when the CLI compressed the file; false when it was gzip already (kept as it was). */
  compressedByAllocscope: z.boolean(),
  /** SHA-256 (hex) of the original file, for whoever wants to compare it with theirs. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type EmbeddedHeader = z.infer<typeof embeddedHeaderSchema>;
export type EmbeddedEnd = z.infer<typeof embeddedEndSchema>;

/**
 * JSON safe inside a <script> element: no "<" (so no "</script>" or "<!--"), and the line
 * separators escaped too; JSON.parse reads the escapes back as the same text.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
